package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shBlocks are the sh code blocks of a Markdown file, in order.
func shBlocks(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// A new project of each language is followed as its README says, from a
// shell in its folder: the set-up block, then run, test and check.
func TestInitWritesAProjectWhoseREADMECommandsRunItTestItAndCheckIt(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("the README's commands need a POSIX shell:", err)
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "hookwire"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	checkout, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range initLangs {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "my-"+lang+"-hook")
			code, out, errOut := hookwire(t, "", "init", "--lang", lang, "--sdk", checkout, dir)
			if code != exitOK {
				t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
			}
			blocks := shBlocks(t, filepath.Join(dir, "README.md"))
			if len(blocks) != 2 {
				t.Fatalf("the README has %d sh blocks, want 2 (set up; run, test, check)", len(blocks))
			}
			if lines := strings.Split(strings.TrimSpace(blocks[1]), "\n"); len(lines) != 3 {
				t.Errorf("the README says %d commands to run, test and check, want 3:\n%s", len(lines), blocks[1])
			}
			sh := exec.Command("sh", "-ex", "-c", blocks[0]+blocks[1])
			sh.Dir = dir
			// The project's own folder, outside any Go workspace; nothing
			// but the hookwire binary just built on the PATH from here.
			sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOWORK=off")
			got, err := sh.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, got)
			}
			for _, want := range []string{
				"llm #1    offered tools: echo_text, read_file, word_count\n",
				"answered by hook my-" + lang + "-hook: 3 words\n",
				"hook.before_tool read_file -> deny_tool: .env may hold secrets: not read",
				"done      The text has 3 words.",
				" passed, 0 failed\n",
			} {
				if !strings.Contains(string(got), want) {
					t.Errorf("the output lacks %q:\n%s", want, got)
				}
			}
		})
	}
}

func TestInitWithoutSDKDependsOnThePublishedVersion(t *testing.T) {
	for lang, want := range map[string][2]string{
		"go":         {"go.mod", "require github.com/hookwire/hookwire/sdk-go v" + version + "\n"},
		"typescript": {"package.json", `"hookwire": "^` + version + `"`},
		"python":     {"README.md", "pip install /path/to/hookwire-" + version + "-py3-none-any.whl"},
	} {
		dir := filepath.Join(t.TempDir(), "hook")
		if code, out, errOut := hookwire(t, "", "init", "--lang", lang, dir); code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", lang, code, out, errOut)
		}
		data, _ := os.ReadFile(filepath.Join(dir, want[0]))
		if !strings.Contains(string(data), want[1]) || strings.Contains(string(data), "replace") || strings.Contains(string(data), "file:") {
			t.Errorf("%s: %s does not depend on the published SDK only:\n%s", lang, want[0], data)
		}
		hooks, _ := os.ReadFile(filepath.Join(dir, "hooks.json"))
		if strings.Contains(string(hooks), "PYTHONPATH") {
			t.Errorf("%s: hooks.json points at a checkout:\n%s", lang, hooks)
		}
		// Nothing is published yet: the README says where the package
		// comes from, never a registry install that fails (or fetches
		// someone else's package of the same name).
		readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		for _, bad := range []string{"pip install hookwire==", "npm install hookwire"} {
			if strings.Contains(string(readme), bad) {
				t.Errorf("%s: README.md says %q, which installs nothing of ours:\n%s", lang, bad, readme)
			}
		}
		if !strings.Contains(string(readme), "--sdk CHECKOUT") {
			t.Errorf("%s: README.md does not say how to use a checkout's SDK:\n%s", lang, readme)
		}
	}
}

// TestInitHooksUseTheCurrentNames: the hook a new user starts from uses
// the helpers' current names, not the deprecated deny.
func TestInitHooksUseTheCurrentNames(t *testing.T) {
	for lang, file := range map[string]string{"python": "hook.py", "typescript": "hook.ts"} {
		dir := filepath.Join(t.TempDir(), "hook")
		if code, out, errOut := hookwire(t, "", "init", "--lang", lang, dir); code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", lang, code, out, errOut)
		}
		src, _ := os.ReadFile(filepath.Join(dir, file))
		if regexp.MustCompile(`\bdeny\b`).Match(src) {
			t.Errorf("%s: %s uses deny, the old name of deny_tool:\n%s", lang, file, src)
		}
	}
}

func TestInitRefusesWhatItCannotDoWithOneLine(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "hook.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "--lang", "rust", "x"}, `hookwire init: --lang: need one of python, typescript, go, not "rust"`},
		{[]string{"init", "--lang", "go"}, "hookwire init: need exactly one DIR"},
		{[]string{"init", "--lang", "go", filepath.Join(t.TempDir(), "My Hook")}, `hookwire init: "my hook" cannot name a hook`},
		{[]string{"init", "--lang", "go", "--sdk", t.TempDir(), filepath.Join(t.TempDir(), "h")}, "no sdk-go/go.mod there: --sdk names a checkout of the hookwire repository"},
		{[]string{"init", "--lang", "python", "--name", "h", full}, "is not empty: a new hook project needs an empty or missing folder"},
	} {
		code, out, errOut := hookwire(t, "", c.args...)
		if code == exitOK || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want one line with %q", c.args, code, out, errOut, c.want)
		}
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("init wrote into a folder that was not empty: %v", entries)
	}
}

// The command the README of a new Python project gives for Claude Code's
// settings works as the agent runs it: through sh -c, from another working
// folder, with the SDK installed in the project's virtual environment only.
func TestTheAgentCommandOfANewPythonProjectRunsItsHookFromTheVenvFromAnyFolder(t *testing.T) {
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "hookwire-bridge"), "../hookwire-bridge").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "my guard") // a space, quoted in the command
	if code, out, errOut := hookwire(t, "", "init", "--lang", "python", "--name", "guard", dir); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	// The SDK in the project's venv, as pip would put it there (a .pth
	// file names the checkout's source: no network needed).
	venv := filepath.Join(dir, ".venv")
	if out, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	site, err := exec.Command(filepath.Join(venv, "bin", "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").Output()
	if err != nil {
		t.Fatal(err)
	}
	sdk, _ := filepath.Abs("../../../sdk-python/src")
	os.WriteFile(filepath.Join(strings.TrimSpace(string(site)), "hookwire.pth"), []byte(sdk+"\n"), 0o644)

	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	m := regexp.MustCompile("(?s)```json\n(\\{\"hooks\": \\{\n  \"PreToolUse\".*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatalf("the README has no Claude Code settings:\n%s", readme)
	}
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if err := json.Unmarshal(m[1], &settings); err != nil {
		t.Fatalf("the README's Claude Code settings: %v\n%s", err, m[1])
	}
	command := settings.Hooks["PreToolUse"][0].Hooks[0].Command
	runtimeDir, err := os.MkdirTemp("", "hwi") // short: a socket's path has a limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtimeDir) })
	event := func(name string, fields string) string {
		sh := exec.Command("sh", "-c", command)
		sh.Dir = "/"
		sh.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "XDG_RUNTIME_DIR=" + runtimeDir}
		sh.Stdin = strings.NewReader(`{"hook_event_name":"` + name + `","session_id":"s1","cwd":"/"` + fields + `}`)
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	if out := event("PreToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/srv/app/.env"}`); !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, ".env may hold secrets") {
		t.Errorf("reading .env: %s, want it denied by the hook", out)
	}
	if out := event("PreToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/srv/app/README.md"}`); strings.Contains(out, "deny") {
		t.Errorf("reading README.md: %s, want it let through", out)
	}
	event("SessionEnd", "")
}

// TestTheREADMEsTypeScriptInstallPinsWhatInitPins: a user who follows the
// README and one who runs init compile with the same TypeScript and Node.js
// types.
func TestTheREADMEsTypeScriptInstallPinsWhatInitPins(t *testing.T) {
	tmpl, err := initData.ReadFile("initdata/typescript/package.json.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var install string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "npm install ") && strings.Contains(line, "hookwire-") {
			install = line
		}
	}
	for _, pkg := range []string{"typescript", "@types/node"} {
		pin := regexp.MustCompile(`"` + regexp.QuoteMeta(pkg) + `": "([^"]+)"`).FindSubmatch(tmpl)
		if pin == nil {
			t.Fatalf("init's package.json pins no %s", pkg)
		}
		if want := pkg + "@" + string(pin[1]); !strings.Contains(install, want) {
			t.Errorf("the README's TypeScript install line %q does not install %s, as init does", install, want)
		}
	}
}

// A new project's hooks.json loads in PicoClaw as it is, without the
// warning that PicoClaw would rewrite it, and its README says that
// PicoClaw reverts the plugin tool and to serve it with hookwire mcp.
func TestInitProjectsLoadInPicoClawAndSayItRevertsTheirTool(t *testing.T) {
	for _, lang := range initLangs {
		dir := filepath.Join(t.TempDir(), "my-"+lang+"-hook")
		if code, out, errOut := hookwire(t, "", "init", "--lang", lang, dir); code != exitOK {
			t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
		}
		if code, out, errOut := hookwire(t, "", "validate", "--host", "picoclaw", filepath.Join(dir, "hooks.json")); code != exitOK || out+errOut != "" {
			t.Errorf("%s: exit %d, want nothing said:\n%s%s", lang, code, out, errOut)
		}
		readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		flat := strings.Join(strings.Fields(string(readme)), " ")
		for _, want := range []string{"PicoClaw reverts a tool that a hook adds in `before_llm`", "`hookwire mcp`", `"args": ["mcp", "--dir"`} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the README does not say %q", lang, want)
			}
		}
	}
}
