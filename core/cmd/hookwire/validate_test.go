package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/schema"
)

// validateFiles are the files of testdata/validate, each full of mistakes
// a person makes, and what validate says of each: every mistake once, at
// the member or value at fault, as a compiler would.
var validateFiles = []struct {
	name string
	args []string
	want string
}{
	{"a hooks file with three mistakes", []string{"testdata/validate/hooks.json"},
		`testdata/validate/hooks.json:7:37: hooks.processes.audit.intercept[1]: unknown stage "befor_tool" (did you mean "before_tool"?)
testdata/validate/hooks.json:8:9: hooks.processes.audit.timeout_ms: want an integer, got string
testdata/validate/hooks.json:9:9: hooks.processes.audit.priorty: unknown key (did you mean "priority"?)
`},
	{"a trailing comma", []string{"testdata/validate/trailing-comma.json"},
		`testdata/validate/trailing-comma.json:6:43: not JSON: a comma after the last item, which JSON does not allow: take it out
`},
	{"a missing quote", []string{"testdata/validate/missing-quote.json"},
		`testdata/validate/missing-quote.json:5:9: not JSON: the string is not closed on its line: a " is missing
`},
	{"a missing brace", []string{"testdata/validate/missing-brace.json"},
		`testdata/validate/missing-brace.json:8:2: not JSON: the file ends before a quote, bracket or brace closes what it opened
`},
	{"an unknown event in Claude Code's settings", []string{"testdata/validate/settings.json"},
		`testdata/validate/settings.json:7:5: hooks.PostToolUze: unknown event of Claude Code (did you mean "PostToolUse"?)
`},
	{"a message with a method typo", []string{"testdata/validate/message.json"},
		`testdata/validate/message.json:4:3: /method: unknown method "hook.befor_tool" (did you mean "hook.before_tool"?) (rule method)
`},
	{"two mistakes PicoClaw refuses", []string{"--host", "picoclaw", "testdata/validate/config.json"},
		`testdata/validate/config.json:8:9: PicoClaw refuses hooks.processes.guard.enabled: want true or false
testdata/validate/config.json:10:23: PicoClaw refuses hooks.processes.guard.intercept[0]: unknown stage "befor_tool" (did you mean "before_tool"?)
`},
}

func TestValidateSaysEveryMistakeOnceAtItsPosition(t *testing.T) {
	for _, tc := range validateFiles {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := hookwire(t, "", append([]string{"validate"}, tc.args...)...)
			if code != exitFail || out != tc.want || errOut != "" {
				t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant exit 1 and\n%s", code, out, errOut, tc.want)
			}
		})
	}
}

// PicoClaw's config.json is told by its other sections: --host picoclaw
// is not needed to check it as PicoClaw does.
func TestValidateTellsPicoClawsFileByItsContent(t *testing.T) {
	code, out, _ := hookwire(t, "", "validate", "testdata/validate/config.json")
	if code != exitFail || out != validateFiles[6].want {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestValidatePrintsNothingForFilesWithoutMistakes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	files := []string{
		weatherHooks,
		write("settings.json", `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "g", "timeout": 30}]}]}}`),
		write("gemini.json", "{\n  // Gemini CLI reads comments\n  \"hooks\": {\"BeforeTool\": [{\"matcher\": \".*\", \"hooks\": [{\"type\": \"command\", \"command\": \"g\"}]}],},\n}\n"),
		write("cursor.json", `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "g"}]}}`),
		write("message.json", "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"hook.before_tool\",\n  \"params\": {\"tool\": \"bash\", \"arguments\": {}}\n}\n"),
	}
	code, out, errOut := hookwire(t, "", append([]string{"validate"}, files...)...)
	if code != exitOK || out != "" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestValidateSaysWhichKindsAFileCouldBe(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hooks.json")
	os.WriteFile(file, []byte(`{"hooks": {}}`), 0o644)
	code, out, _ := hookwire(t, "", "validate", file)
	if want := file + ": could be hooks or settings: say which with --kind\n"; code != exitFail || out != want {
		t.Errorf("exit %d, stdout %q, want %q", code, out, want)
	}
	code, out, _ = hookwire(t, "", "validate", weatherScenario)
	if want := weatherScenario + ": not a kind of file told by its content (hooks, picoclaw, settings, message, vector, trace): say which it is with --kind\n"; code != exitFail || out != want {
		t.Errorf("a scenario: exit %d, stdout %q, want %q", code, out, want)
	}
	if code, out, errOut := hookwire(t, "", "validate", "--kind", "hooks", file); code != exitOK || out+errOut != "" {
		t.Errorf("--kind hooks: exit %d, %q %q", code, out, errOut)
	}
	// Read as a message, a hooks file is a message without jsonrpc.
	code, out, _ = hookwire(t, "", "validate", "--kind", "message", "testdata/validate/hooks.json")
	if want := "testdata/validate/hooks.json:1:1: /jsonrpc: required member jsonrpc is missing (rule required)\n"; code != exitFail || !strings.Contains(out, want) {
		t.Errorf("--kind message: exit %d, stdout %q, want a line %q", code, out, want)
	}
}

func TestValidateSuggestsTheNearestKindAndAgent(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "setting"}, `hookwire validate: unknown kind "setting" (did you mean "settings"?) (known: hooks, picoclaw, settings, message, vector, trace)`},
		{[]string{"--agent", "claude-cod"}, `hookwire validate: unknown agent "claude-cod" (did you mean "claude-code"?)`},
		// An agent whose hooks are programs has no settings file to check.
		{[]string{"--agent", "cline"}, `hookwire validate: cline has no settings file: its hooks are programs, one per event (check them with hookwire doctor cline)`},
		{[]string{"--agent", "opencode"}, `hookwire validate: opencode has no settings file: its hooks are hookwire's plugin of its plugin API (check them with hookwire doctor opencode)`},
	} {
		code, out, errOut := hookwire(t, "", append(append([]string{"validate"}, tc.args...), "testdata/validate/settings.json")...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

// --agent says whose settings a file is: Gemini CLI's events are not
// Claude Code's.
func TestValidateChecksASettingsFileAsTheAgentSays(t *testing.T) {
	code, out, _ := hookwire(t, "", "validate", "--agent", "gemini-cli", "testdata/validate/settings.json")
	want := `testdata/validate/settings.json:4:5: hooks.PreToolUse: unknown event of Gemini CLI
testdata/validate/settings.json:7:5: hooks.PostToolUze: unknown event of Gemini CLI
`
	if code != exitFail || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", code, out, want)
	}
}

// FuzzValidate reads any bytes as each kind of file: no panic, and every
// fault is one line at a place within the file.
func FuzzValidate(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/validate/*.json")
	seeds = append(seeds, weatherHooks, "testdata/weather.jsonl")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"hook":"h","dir":"send","text":"x\ny"}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{}}`))
	f.Add([]byte(`{"description":"d","def":"Mode","value":"x"}`))
	f.Add([]byte(`{"version": 3, "_comment": 1, "model_list": [{"api_keys": "k"}], "tools": {"web": {"brave": {"api_key": "x"}}}, "hooks": {"processes": {"a": {"enabled": true, "observe": ["*", "x"]}}}}`))
	f.Add([]byte(`{"version": 1, "hooks": {"stop": [{"command": 3}]}}`))
	v, err := schema.NewValidator()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range append([]string{""}, validateKinds...) {
			for _, h := range []*host.Host{host.Reference, host.PicoClaw} {
				c := &checker{v: v, kind: kind, host: h}
				for _, ft := range c.check(data) {
					if ft.off < -1 || ft.off > len(data) || strings.Contains(ft.msg, "\n") || ft.msg == "" {
						t.Fatalf("kind %q, host %s: fault %+v of %q", kind, h, ft, data)
					}
				}
			}
		}
	})
}
