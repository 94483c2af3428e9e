package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Each configuration file gets from `hookwire run --host picoclaw --config`
// the verdict PicoClaw's own loader gives it (as recorded from its code):
// the whole config.json is read, hooks.enabled defaults to true, and
// hookwire's extensions are refused (hooks.defaults and its three
// timeouts are PicoClaw's own).
func TestPicoClawConfigFilesGetPicoClawsVerdict(t *testing.T) {
	script, err := filepath.Abs("../../../examples/weather/script/weather_plugin.py")
	if err != nil {
		t.Fatal(err)
	}
	hook := func(extra string) string {
		cmd, _ := json.Marshal([]string{"python3", script})
		return `{"enabled": true, "priority": 100, "transport": "stdio", "command": ` + string(cmd) + extra + `}`
	}
	for _, c := range []struct {
		name     string
		config   string
		accepted bool
		refusal  string // a part of the error when refused
	}{
		{"a whole config.json, other sections and all", `{"agents": {"defaults": {"model": "gpt-4o"}}, "providers": {"openai": {"api_key": "k"}}, "hooks": {"enabled": true, "processes": {"w": ` + hook(`, "intercept": ["before_tool"]`) + `}}}`, true, ""},
		{"hooks.enabled absent means enabled", `{"hooks": {"processes": {"w": ` + hook(`, "intercept": ["before_tool"]`) + `}}}`, true, ""},
		{"no hooks section", `{"agents": {}}`, true, ""},
		{`observe ["all"]`, `{"hooks": {"processes": {"w": ` + hook(`, "observe": ["all"]`) + `}}}`, true, ""},
		{`observe [""]`, `{"hooks": {"processes": {"w": ` + hook(`, "observe": [""]`) + `}}}`, true, ""},
		{"observe a channel kind", `{"hooks": {"processes": {"w": ` + hook(`, "observe": ["channel.lifecycle.started"]`) + `}}}`, true, ""},
		{"observe legacy and runtime kinds", `{"hooks": {"processes": {"w": ` + hook(`, "observe": ["tool_exec_end", "agent.turn.end"]`) + `}}}`, true, ""},
		{`intercept [""] alone`, `{"hooks": {"processes": {"w": ` + hook(`, "intercept": [""]`) + `}}}`, false, "hooks.processes.w: no hook modes enabled"},
		{`intercept ["", "before_tool"]`, `{"hooks": {"processes": {"w": ` + hook(`, "intercept": ["", "before_tool"]`) + `}}}`, true, ""},
		{"an invalid stage on a disabled process", `{"hooks": {"processes": {"w": {"enabled": false, "command": ["nothing"], "intercept": ["befor_tool"]}}}}`, true, ""},
		{"an invalid stage on an enabled process", `{"hooks": {"processes": {"w": ` + hook(`, "intercept": ["befor_tool"]`) + `}}}`, false, `hooks.processes.w.intercept[0]: unknown stage "befor_tool"`},
		{"timeout_ms", `{"hooks": {"processes": {"w": ` + hook(`, "timeout_ms": 2000`) + `}}}`, false, "hooks.processes.w.timeout_ms: unknown key"},
		{"failure_policy", `{"hooks": {"processes": {"w": ` + hook(`, "failure_policy": {"before_tool": "closed"}`) + `}}}`, false, "hooks.processes.w.failure_policy: unknown key"},
		{"restart", `{"hooks": {"processes": {"w": ` + hook(`, "restart": {"enabled": false}`) + `}}}`, false, "hooks.processes.w.restart: unknown key"},
		{"hooks.defaults, PicoClaw's own", `{"hooks": {"defaults": {"observer_timeout_ms": 500, "interceptor_timeout_ms": 100, "approval_timeout_ms": 60000}}}`, true, ""},
		{"hookwire's settings in hooks.defaults", `{"hooks": {"defaults": {"approval": "allow"}}}`, false, "hooks.defaults.approval: unknown key"},
		{"a timeout of the wrong type", `{"hooks": {"defaults": {"interceptor_timeout_ms": "5s"}}}`, false, "hooks.defaults.interceptor_timeout_ms: want an integer"},
		{"a glob", `{"hooks": {"processes": {"w": ` + hook(`, "observe": ["agent.tool.*"]`) + `}}}`, false, `hooks.processes.w.observe[0]: unsupported observe event "agent.tool.*"`},
		{"a kind PicoClaw does not emit", `{"hooks": {"processes": {"w": ` + hook(`, "observe": ["agent.session.start"]`) + `}}}`, false, `hooks.processes.w.observe[0]: unsupported observe event "agent.session.start", which fails the agent's start: PicoClaw has no session events`},
		{"an unknown key in hooks", `{"hooks": {"enabld": true}}`, false, "hooks.enabld: unknown key"},
		{"a builtin it has not registered", `{"hooks": {"builtins": {"nope": {"enabled": true}}}}`, false, `hooks.builtins.nope: builtin hook "nope" is not registered`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			config := filepath.Join(dir, "config.json")
			scenario := filepath.Join(dir, "scenario.json")
			os.WriteFile(config, []byte(c.config), 0o644)
			os.WriteFile(scenario, []byte(`{"prompt": "hi", "replies": [{"content": "hello"}]}`), 0o644)
			code, out, errOut := hookwire(t, "", "run", "--host", "picoclaw", "--config", config, scenario)
			if c.accepted {
				if code != exitOK || !strings.Contains(out, "done      hello") {
					t.Errorf("PicoClaw accepts it; exit %d\n%s%s", code, out, errOut)
				}
				if runs := strings.Contains(out, "hooks     w (process"); runs != strings.Contains(c.config, `"w": {"enabled": true`) {
					t.Errorf("hook w runs: %v; it should when it is enabled, hooks.enabled or not\n%s", runs, out)
				}
				return
			}
			if code != exitFail || !strings.Contains(errOut, c.refusal) {
				t.Errorf("PicoClaw refuses it; exit %d, stderr %q, want it to say %q", code, errOut, c.refusal)
			}
		})
	}
}

// PicoClaw takes a relative dir from its working directory, the reference
// host from the configuration file's folder; either way an error names the
// folder looked for.
func TestARelativeDirThatIsNotThereIsAnErrorNamingWhereItWasLookedFor(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	os.WriteFile(config, []byte(`{"hooks": {"processes": {"w": {"enabled": true, "command": ["python3", "w.py"], "intercept": ["before_tool"], "dir": "hooks"}}}}`), 0o644)
	wd, _ := os.Getwd()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", "picoclaw", "--config", config}, `hooks.processes.w.dir: "hooks": no such directory (looked for ` + filepath.Join(wd, "hooks") + ", from the working directory " + wd},
		{[]string{"--hooks", config}, "its directory " + filepath.Join(dir, "hooks") + " does not exist"},
	} {
		code, _, errOut := hookwire(t, "", append(append([]string{"run"}, c.args...), weatherScenario)...)
		if code != exitFail || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to name %s", c.args, code, errOut, c.want)
		}
	}
}

func TestValidateHostPicoClawSaysKeyByKeyWhatPicoClawRefuses(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(config, []byte(`{"version": 3, "agents": {}, "hooks": {"defaults": {"approval": "deny"}, "processes": {"audit": {"enabled": true, "command": ["python3", "a.py"], "observe": ["agent.tool.*", "all"], "timeout_ms": 2000}}}}`), 0o644)
	code, out, errOut := hookwire(t, "", "validate", "--host", "picoclaw", config)
	if code != exitFail {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, key := range []string{"hooks.defaults.approval: unknown key", "hooks.processes.audit.timeout_ms: unknown key", "hooks.processes.audit.observe[0]: unsupported observe event \"agent.tool.*\""} {
		if !regexp.MustCompile(regexp.QuoteMeta(config) + `:1:\d+: PicoClaw refuses ` + regexp.QuoteMeta(key)).MatchString(out) {
			t.Errorf("no line for %s in:\n%s%s", key, out, errOut)
		}
	}
	if n := strings.Count(out+errOut, "PicoClaw refuses"); n != 3 {
		t.Errorf("%d lines, want 3 (observe \"all\" is PicoClaw's):\n%s%s", n, out, errOut)
	}
	os.WriteFile(config, []byte(`{"version": 3, "agents": {}, "hooks": {"processes": {"audit": {"enabled": true, "command": ["python3", "a.py"], "observe": ["all"]}}}}`), 0o644)
	if code, out, errOut := hookwire(t, "", "validate", "--host", "picoclaw", config); code != exitOK || out+errOut != "" {
		t.Errorf("a file PicoClaw loads: exit %d\n%s%s", code, out, errOut)
	}
}

func TestConformanceHostPicoClawWarnsThatTheInjectedToolIsReverted(t *testing.T) {
	script := "../../../examples/weather/script/weather_plugin.py"
	code, out, errOut := hookwire(t, "", "conformance", "--host", "picoclaw", "--", "python3", script)
	want := "  WARN  hook.before_llm: tools change (added get_weather) reverted: PicoClaw lets no hook change the tools offered to the LLM\n"
	if code != exitOK || strings.Count(out, "WARN") != 2 || !strings.Contains(out, want) || !strings.Contains(out, "answers before_llm with modify and after_llm with continue") {
		t.Errorf("exit %d, want every check passed, a warning %q and one of the LLM stages paired:\n%s%s", code, want, out, errOut)
	}
	if _, out, _ := hookwire(t, "", "conformance", "--", "python3", script); strings.Contains(out, "WARN") {
		t.Errorf("the reference host warns of nothing:\n%s", out)
	}
}

// hookwire's settings live in a hooks file of hookwire's format beside
// PicoClaw's config.json, which stays as PicoClaw loads it.
func TestHookwiresSettingsComeFromAHooksFileBesidePicoClawsConfig(t *testing.T) {
	dir := t.TempDir()
	script, _ := filepath.Abs("../../../examples/weather/script/weather_plugin.py")
	cmd, _ := json.Marshal([]string{"python3", script})
	config := filepath.Join(dir, "config.json")
	os.WriteFile(config, []byte(`{"agents": {}, "hooks": {"processes": {"w": {"enabled": true, "command": `+string(cmd)+`, "intercept": ["before_tool"]}}}}`), 0o644)
	scenario := filepath.Join(dir, "scenario.json")
	os.WriteFile(scenario, []byte(`{"prompt": "hi", "replies": [{"content": "hello"}]}`), 0o644)
	for _, c := range []struct {
		overlay string
		code    int
		stderr  string
	}{
		{`{"hooks": {"defaults": {"approval": "allow"}, "processes": {"w": {"timeout_ms": 2000, "restart": {"enabled": false}}}}}`, exitOK, ""},
		{`{"hooks": {"processes": {"x": {"timeout_ms": 2000}}}}`, exitFail, "hooks.processes.x: no process of that name in PicoClaw's configuration"},
		{`{"hooks": {"processes": {"w": {"enabled": true, "command": ["other"]}}}}`, exitFail, "only timeout_ms, failure_policy and restart may be set here"},
	} {
		overlay := filepath.Join(dir, "hooks.json")
		os.WriteFile(overlay, []byte(c.overlay), 0o644)
		code, out, errOut := hookwire(t, "", "run", "--config", config, "--hooks", overlay, scenario)
		if code != c.code || !strings.Contains(errOut, c.stderr) {
			t.Errorf("%s: exit %d, want %d saying %q\n%s%s", c.overlay, code, c.code, c.stderr, out, errOut)
		}
	}
	if code, _, errOut := hookwire(t, "", "run", "--host", "picoclaw", "--config", config, "--hooks", config, scenario); code != exitFail || !strings.Contains(errOut, "never reads hookwire's settings") {
		t.Errorf("--host picoclaw with --hooks: exit %d, %s", code, errOut)
	}
}
