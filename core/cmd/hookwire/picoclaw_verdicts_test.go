package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each case is a small PicoClaw config.json and PicoClaw's verdict on it,
// read in its code (snapshot cf67dd38): pkg/config/config.go LoadConfig
// and pkg/config/diagnostics.go for the file, pkg/agent/hook_mount.go for
// the hooks it starts. validate --host picoclaw must give that verdict:
// want is a fragment of its one line ("" for none), and refused whether
// it fails.
var picoClawVerdicts = []struct {
	name, config string
	refused      bool
	want         string
}{
	{"observe star is every event", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["*"]}}}}`, false, ""},
	{"observe empty name is every event", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": [""]}}}}`, false, ""},
	{"names after an every-event name are not looked at", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["all", "nonsense"]}}}}`, false, ""},
	{"a timeout under 1 is the default", `{"version": 3, "hooks": {"defaults": {"interceptor_timeout_ms": -1, "observer_timeout_ms": 0}}}`, false, ""},
	{"hooks off skips the processes' checks", `{"version": 3, "hooks": {"enabled": false, "processes": {"a": {"enabled": true, "transport": "tcp", "intercept": ["nonsense"]}}, "builtins": {"b": {"enabled": true}}}}`, false, ""},
	{"hooks off still checks keys", `{"version": 3, "hooks": {"enabled": false, "processes": {"a": {"timeout_ms": 5}}}}`, true, "hooks.processes.a.timeout_ms: unknown key to PicoClaw"},
	{"a process asked nothing", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "intercept": [""]}}}}`, true, "1:40: PicoClaw refuses hooks.processes.a: no hook modes enabled"},
	{"an unknown observe event", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["tool_exec_whatever"]}}}}`, true, `hooks.processes.a.observe[0]: unsupported observe event "tool_exec_whatever"`},
	{"no session events", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["agent.session.end"]}}}}`, true, "PicoClaw has no session events"},
	{"no globs", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["agent.session.*"]}}}}`, true, `unsupported observe event "agent.session.*"`},
	{"its other kinds and older names", `{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "observe": ["mcp.tool.call.end", "subturn_spawn", "gateway.ready"]}}}}`, false, ""},
	{"an unregistered builtin", `{"version": 3, "hooks": {"builtins": {"skill_hooks": {"enabled": true}}}}`, true, `hooks.builtins.skill_hooks: builtin hook "skill_hooks" is not registered`},
	{"a disabled builtin", `{"version": 3, "hooks": {"builtins": {"skill_hooks": {"enabled": false}}}}`, false, ""},
	{"a key outside hooks", `{"version": 3, "tools": {"web": {"brave": {"api_key": "k"}}}}`, true, `1:44: PicoClaw refuses tools.web.brave.api_key: unknown key (did you mean "api_keys"?)`},
	{"a comment key", `{"version": 3, "gateway": {"_comment": "x", "port": 1}}`, true, "gateway._comment: unknown key (known: host, hot_reload, log_level, port)"},
	{"a value of the wrong type outside hooks", `{"version": 3, "gateway": {"port": "80"}}`, true, "gateway.port: want an integer"},
	{"a section misspelt", `{"version": 3, "tool": {}}`, true, `tool: unknown key (did you mean "tools"?)`},
	{"no version", `{"hooks": {"processes": {}}}`, false, `warning: no "version": PicoClaw migrates the file and rewrites it in place`},
	{"no version says how to keep the file", `{"hooks": {"processes": {}}}`, false, `add "version": 3`},
	{"an old version", `{"version": 2, "hooks": {"processes": {}}}`, false, "1:2: warning: version: version 2: PicoClaw migrates the file"},
	{"a version PicoClaw does not know", `{"version": 4, "hooks": {}}`, true, "unsupported config version 4"},
}

func TestValidateHostPicoClawGivesPicoClawsVerdict(t *testing.T) {
	dir := t.TempDir()
	for i, c := range picoClawVerdicts {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, "config"+string(rune('a'+i))+".json")
			if err := os.WriteFile(file, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := hookwire(t, "", "validate", "--host", "picoclaw", file)
			switch {
			case c.refused && code != exitFail, !c.refused && code != exitOK:
				t.Errorf("exit %d, want refused %v:\n%s%s", code, c.refused, out, errOut)
			case c.want == "" && out != "":
				t.Errorf("want nothing said, got:\n%s", out)
			case !strings.Contains(out, c.want):
				t.Errorf("want a line with %q, got:\n%s%s", c.want, out, errOut)
			case c.want != "" && strings.Count(out, "\n") != 1:
				t.Errorf("want one line, got:\n%s", out)
			}
		})
	}
}

// run --config reads PicoClaw's file as PicoClaw does: it refuses what
// PicoClaw refuses, and warns of what PicoClaw does to the file.
func TestRunConfigGivesPicoClawsVerdict(t *testing.T) {
	dir := t.TempDir()
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "hi", "replies": []any{map[string]any{"content": "hello"}}})
	for _, c := range []struct{ config, transcript, stderr string }{
		{`{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["` + fixtureBin + `"], "observe": ["*"]}}}}`, "a (process, priority 0): observes events", ""},
		{`{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["` + fixtureBin + `"], "observe": [""]}}}}`, "a (process, priority 0): observes events", ""},
		{`{"version": 3, "hooks": {"enabled": false, "processes": {"a": {"enabled": true, "transport": "tcp"}}}}`, "hooks     none", ""},
		{`{"version": 3, "hooks": {"defaults": {"interceptor_timeout_ms": -1}}}`, "hooks     none", ""},
		{`{"hooks": {}}`, "hooks     none", `warning: no "version": PicoClaw migrates the file`},
		{`{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"]}}}}`, "", "hooks.processes.a: no hook modes enabled"},
		{`{"version": 3, "_comment": "x", "hooks": {}}`, "", "_comment: unknown key"},
	} {
		config := filepath.Join(dir, "config.json")
		os.WriteFile(config, []byte(c.config), 0o644)
		code, out, errOut := hookwire(t, "", "run", "--config", config, scenario)
		switch {
		case c.transcript == "" && (code != exitFail || !strings.Contains(errOut, c.stderr)):
			t.Errorf("%s: exit %d, want refused with %q:\n%s%s", c.config, code, c.stderr, out, errOut)
		case c.transcript != "" && (code != exitOK || !strings.Contains(out, c.transcript) || !strings.Contains(errOut, c.stderr)):
			t.Errorf("%s: exit %d, want %q and %q:\n%s%s", c.config, code, c.transcript, c.stderr, out, errOut)
		case c.transcript != "" && c.stderr == "" && errOut != "":
			t.Errorf("%s: want nothing on stderr:\n%s", c.config, errOut)
		}
	}
}

// A hooks file may say PicoClaw's "version" beside "hooks": it is still
// hookwire's format, with its extensions, and PicoClaw's verdict is the
// same as without it, less the warning of a rewrite.
func TestAHooksFileWithAVersionIsStillHookwiresFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hooks.json")
	os.WriteFile(file, []byte(`{"version": 3, "hooks": {"processes": {"a": {"enabled": true, "command": ["x"], "intercept": ["before_tool"], "timeout_ms": 5}}}}`), 0o644)
	if code, out, errOut := hookwire(t, "", "validate", file); code != exitOK || out+errOut != "" {
		t.Errorf("validate: exit %d, want hookwire's format accepted:\n%s%s", code, out, errOut)
	}
	code, out, _ := hookwire(t, "", "validate", "--host", "picoclaw", file)
	if code != exitFail || !strings.Contains(out, "hooks.processes.a.timeout_ms: unknown key to PicoClaw") || strings.Contains(out, "warning") {
		t.Errorf("validate --host picoclaw: exit %d, want the extension refused and no warning:\n%s", code, out)
	}
}
