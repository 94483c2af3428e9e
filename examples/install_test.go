package examples

// The install section of the repository's README, followed as a user
// follows it: each package installed from its release file into an empty
// folder outside the repository, then the README's first hook in that
// language run with it under `hookwire run`. The release files are those of
// `go tool mage dist` when HOOKWIRE_DIST names its folder (all six CLI
// binaries are then checked too); otherwise this machine's, built here.

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// block is a fenced code block of a Markdown file.
type block struct {
	section    string // "## Section / ### Subsection" it is under
	lang, code string
	file       string // the file it is, when the line before names one: "`weather.py`:"
}

// readmeBlocks are the code blocks of a Markdown file, in order.
func readmeBlocks(t *testing.T, path string) []block {
	t.Helper()
	var blocks []block
	var h2, h3, prev string
	lines := strings.Split(readFile(t, path), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "## "):
			h2, h3 = strings.TrimPrefix(line, "## "), ""
		case strings.HasPrefix(line, "### "):
			h3 = strings.TrimPrefix(line, "### ")
		case strings.HasPrefix(line, "```") && len(line) > 3:
			b := block{section: h2, lang: line[3:]}
			if h3 != "" {
				b.section += " / " + h3
			}
			if m := regexp.MustCompile("^`([^`]+)`:$").FindStringSubmatch(prev); m != nil {
				b.file = m[1]
			}
			for i++; i < len(lines) && lines[i] != "```"; i++ {
				b.code += lines[i] + "\n"
			}
			blocks = append(blocks, b)
		}
		if strings.TrimSpace(line) != "" {
			prev = line
		}
	}
	return blocks
}

// readmeSections maps each section to its code blocks, in order.
func readmeSections(t *testing.T, path string) map[string][]block {
	t.Helper()
	sections := map[string][]block{}
	for _, b := range readmeBlocks(t, path) {
		sections[b.section] = append(sections[b.section], b)
	}
	return sections
}

func ofLang(blocks []block, lang string) []block {
	return keep(blocks, func(b block) bool { return b.lang == lang })
}

// keep is the elements of xs that f is true of, in order.
func keep[T any](xs []T, f func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if f(x) {
			out = append(out, x)
		}
	}
	return out
}

func TestInstallEachPackageAsTheREADMESaysAndRunAHookWithIt(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(readFile(t, filepath.Join(root, "VERSION")))
	dist := os.Getenv("HOOKWIRE_DIST")
	if dist == "" {
		dist = buildNative(t, root, version)
	} else {
		checkEveryBinary(t, dist, version)
	}
	cli := fmt.Sprintf("hookwire-%s-%s-%s", version, runtime.GOOS, runtime.GOARCH)
	wheel := fmt.Sprintf("hookwire-%s-py3-none-any.whl", version)
	sdist := fmt.Sprintf("hookwire-%s.tar.gz", version)
	tarball := fmt.Sprintf("hookwire-%s.tgz", version)
	for _, f := range []string{cli, wheel, sdist, tarball} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			t.Fatalf("no %s among the release files: %v", f, err)
		}
	}
	// The sdist is installed through the wheel that pip builds from it
	// (with the build backend pinned in .venv, so with no network).
	fromSdist := t.TempDir()
	pip := exec.Command(filepath.Join(root, ".venv", "bin", "pip"), "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
		"--wheel-dir", fromSdist, filepath.Join(dist, sdist))
	if out, err := pip.CombinedOutput(); err != nil {
		t.Fatalf("pip wheel %s: %v\n%s", sdist, err, out)
	}

	readme := readmeSections(t, filepath.Join(root, "README.md"))
	// The paths the README writes for the checkout and its dist/ folder.
	paths := strings.NewReplacer(
		"/path/to/hookwire/dist/", dist+string(filepath.Separator),
		"/path/to/hookwire/", root+string(filepath.Separator),
		"-linux-amd64", "-"+runtime.GOOS+"-"+runtime.GOARCH,
	)
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home,
		"PATH="+filepath.Join(home, ".local", "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		// Outside any workspace, with no module proxy: the Go SDK comes
		// from the checkout, as the README's replace says. The caches stay
		// the machine's, so that nothing is fetched or built again.
		"GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local",
		"GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"),
		"npm_config_cache="+npmCache(t), "npm_config_prefer_offline=true", "npm_config_audit=false", "npm_config_fund=false",
	)
	sh := func(t *testing.T, dir, script string) string {
		t.Helper()
		cmd := exec.Command("bash", "-e", "-x", "-c", script)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return string(out)
	}

	clis := ofLang(readme["Install / The `hookwire` CLI"], "sh")
	if len(clis) != 1 {
		t.Fatalf("the README's install section has %d sh blocks for the CLI, want 1", len(clis))
	}
	if out := sh(t, t.TempDir(), paths.Replace(clis[0].code)); !strings.Contains(out, "\nhookwire "+version+"\n") {
		t.Fatalf("the installed CLI does not say its version:\n%s", out)
	}

	scenario := ofLang(readme["Your first hook"], "json")
	if len(scenario) != 1 {
		t.Fatalf("the README's first hook section has %d json blocks before its languages, want 1 (the scenario)", len(scenario))
	}
	for _, c := range []struct{ name, section, replace, sdk, lang string }{
		{"python wheel", "Python", "", "sdk-python", "python"},
		{"python sdist", "Python", filepath.Join(dist, wheel) + "=" + filepath.Join(fromSdist, wheel), "sdk-python", "python"},
		{"typescript", "TypeScript", "", "sdk-node", "ts"},
		{"go", "Go", "", "sdk-go", "go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			project := filepath.Join(t.TempDir(), "weather")
			if err := os.Mkdir(project, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(project, "scenario.json"), scenario[0].code)
			var script, play strings.Builder
			install := ofLang(readme["Install / "+c.section], "sh")
			if len(install) == 0 {
				t.Fatalf("the README's install section has no sh block for %s", c.section)
			}
			for _, b := range install {
				script.WriteString(paths.Replace(b.code))
			}
			var hookFile string
			for _, b := range readme["Your first hook / "+c.section] {
				if b.file != "" {
					write(t, filepath.Join(project, b.file), b.code)
					if b.lang == c.lang {
						hookFile = b.file
					}
				} else if b.lang == "sh" {
					play.WriteString(b.code)
				}
			}
			// The SDK's README opens with the same plugin and its
			// hooks.json: they run as written too, from a folder of their
			// own in the same project, after the above.
			first := func(lang string) string {
				for _, b := range readmeBlocks(t, filepath.Join(root, c.sdk, "README.md")) {
					if b.lang == lang {
						return b.code
					}
				}
				t.Fatalf("%s/README.md has no %s block", c.sdk, lang)
				return ""
			}
			sdkDir := filepath.Join(project, "sdk")
			if err := os.Mkdir(sdkDir, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(sdkDir, hookFile), first(c.lang))
			write(t, filepath.Join(sdkDir, "hooks.json"), first("json"))
			write(t, filepath.Join(sdkDir, "scenario.json"), scenario[0].code)

			text := script.String() + play.String() + "cd sdk\n" + play.String()
			if c.replace != "" {
				from, to, _ := strings.Cut(c.replace, "=")
				text = strings.ReplaceAll(text, from, to)
			}
			out := sh(t, project, text)
			readmeRun, sdkRun, _ := strings.Cut(out, "+ cd sdk\n")
			for _, want := range []string{
				"llm #1    offered tools: echo_text, read_file, get_weather\n",
				`tool      get_weather {"city":"Beijing"} answered by hook weather: Beijing: Sunny, 15°C` + "\n",
				"done      Beijing is sunny today, 15°C.",
			} {
				if !strings.Contains(readmeRun, want) {
					t.Errorf("the transcript lacks %q:\n%s", want, out)
				}
			}
			if !strings.Contains(sdkRun, `tool      get_weather {"city":"Beijing"} answered by hook weather: `) {
				t.Errorf("%s/README.md's weather plugin is not answered under hookwire run:\n%s", c.sdk, sdkRun)
			}
		})
	}
}

// buildNative builds this machine's release files as `go tool mage dist`
// does, into a temporary folder.
func buildNative(t *testing.T, root, version string) string {
	t.Helper()
	dist := t.TempDir()
	cli := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dist, fmt.Sprintf("hookwire-%s-%s-%s", version, runtime.GOOS, runtime.GOARCH)), "./cmd/hookwire")
	cli.Dir = filepath.Join(root, "core")
	cli.Env = append(os.Environ(), "CGO_ENABLED=0")
	py := exec.Command(filepath.Join(root, ".venv", "bin", "python"), "-m", "build", "--no-isolation", "--outdir", dist, "sdk-python")
	py.Dir = root
	npm := exec.Command("npm", "pack", "--pack-destination", dist)
	npm.Dir = filepath.Join(root, "sdk-node")
	if err := build(cli, py, npm); err != nil {
		t.Fatal(err)
	}
	return dist
}

// checkEveryBinary checks that dist has the CLI for each system, in that
// system's executable format for its processor.
func checkEveryBinary(t *testing.T, dist, version string) {
	t.Helper()
	for _, p := range []struct {
		goos, goarch string
		machine      string
	}{
		{"linux", "amd64", elf.EM_X86_64.String()}, {"linux", "arm64", elf.EM_AARCH64.String()},
		{"darwin", "amd64", macho.CpuAmd64.String()}, {"darwin", "arm64", macho.CpuArm64.String()},
		{"windows", "amd64", fmt.Sprint(pe.IMAGE_FILE_MACHINE_AMD64)}, {"windows", "arm64", fmt.Sprint(pe.IMAGE_FILE_MACHINE_ARM64)},
	} {
		for _, command := range []string{"hookwire", "hookwire-bridge"} {
			if command == "hookwire-bridge" && p.goos == "windows" {
				continue // the bridge needs Unix sockets
			}
			checkBinary(t, filepath.Join(dist, fmt.Sprintf("%s-%s-%s-%s", command, version, p.goos, p.goarch)), p.goos, p.machine)
		}
	}
	sums := exec.Command("sha256sum", "-c", "SHA256SUMS")
	sums.Dir = dist
	if out, err := sums.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c SHA256SUMS: %v\n%s", err, out)
	}
}

// checkBinary checks that path is an executable of goos for want, the
// processor.
func checkBinary(t *testing.T, path, goos, want string) {
	t.Helper()
	if goos == "windows" {
		path += ".exe"
	}
	var machine string
	var err error
	switch goos {
	case "linux":
		var f *elf.File
		if f, err = elf.Open(path); err == nil {
			machine = f.Machine.String()
			f.Close()
		}
	case "darwin":
		var f *macho.File
		if f, err = macho.Open(path); err == nil {
			machine = f.Cpu.String()
			f.Close()
		}
	case "windows":
		var f *pe.File
		if f, err = pe.Open(path); err == nil {
			machine = fmt.Sprint(f.Machine)
			f.Close()
		}
	}
	if err != nil {
		t.Errorf("%s: %v", filepath.Base(path), err)
	} else if machine != want {
		t.Errorf("%s is built for %s, want %s", filepath.Base(path), machine, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func npmCache(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("npm", "config", "get", "cache").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
