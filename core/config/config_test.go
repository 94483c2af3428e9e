package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

func TestParseConfigReadsTheDocumentedBlock(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{
	  "hooks": {
	    "enabled": true,
	    "defaults": {"observer_timeout_ms": 250, "interceptor_timeout_ms": 4000, "approval_timeout_ms": 30000, "approval": "allow", "respond": "own_tools", "approve_respond": true},
	    "builtins": {"example_logger": {"enabled": true, "priority": 10, "config": {"log_events": true}}},
	    "processes": {
	      "py_review_gate": {
	        "enabled": true,
	        "priority": 100,
	        "transport": "stdio",
	        "command": ["python3", "/tmp/review_gate.py"],
	        "dir": "hooks",
	        "observe": ["tool_exec_start", "agent.tool.*", "*"],
	        "intercept": ["before_tool", "approve_tool"],
	        "env": {"PICOCLAW_HOOK_LOG_FILE": "/tmp/gate.log"},
	        "env_passthrough": ["PATH", "LC_*"], "env_clear": true,
	        "timeout_ms": 800,
	        "failure_policy": {"before_tool": "closed", "approve_tool": "open"},
	        "restart": {"enabled": true, "max_restarts": 3, "backoff_ms": 50, "max_backoff_ms": 1000}
	      }
	    }
	  }
	}`))
	if err != nil {
		t.Fatal(err)
	}
	h := cfg.Hooks
	p := h.Processes["py_review_gate"]
	switch {
	case !h.Enabled, h.Defaults.ObserverTimeoutMS != 250, h.Defaults.ApprovalTimeoutMS != 30000, h.Defaults.Approval != ApprovalAllow:
		t.Errorf("hooks = %+v", h)
	case string(h.Builtins["example_logger"].Config) != `{"log_events": true}`:
		t.Errorf("builtin config = %s", h.Builtins["example_logger"].Config)
	case !p.Enabled || p.Priority != 100 || p.Command[1] != "/tmp/review_gate.py" || p.Dir != "hooks" || p.Env["PICOCLAW_HOOK_LOG_FILE"] != "/tmp/gate.log":
		t.Errorf("process = %+v", p)
	case len(p.Observe) != 3 || len(p.Intercept) != 2 || p.TimeoutMS != 800:
		t.Errorf("process = %+v", p)
	case h.Defaults.Respond != RespondOwnTools || !h.Defaults.ApproveRespond || len(p.EnvPassthrough) != 2 || !p.EnvClear:
		t.Errorf("process = %+v", p)
	}
	if got := p.FailurePolicy; Policy(got["before_tool"]) != FailClosed || Policy(got["approve_tool"]) != FailOpen {
		t.Errorf("policies = %v", got)
	}
	if r := p.Restart; r.MaxRestarts != 3 || r.BackoffMS != 50 || r.MaxBackoffMS != 1000 {
		t.Errorf("restart = %+v", r)
	}
}

func TestParseConfigNamesTheKeyAtFault(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`[]`, "want a JSON object"},
		{`{"hooks": {"enabled": true,}}`, "not JSON"},
		{`{"hook": {}}`, "hook: unknown key (known: hooks, version)"},
		{`{"hooks": {"enable": true}}`, "hooks.enable: unknown key"},
		{`{"hooks": {"enabled": "yes"}}`, "hooks.enabled: want true or false, got string"},
		{`{"hooks": {"defaults": {"timeout_ms": 5}}}`, "hooks.defaults.timeout_ms: unknown key"},
		{`{"hooks": {"defaults": {"approval_timeout_ms": -1}}}`, "hooks.defaults.approval_timeout_ms: must not be negative"},
		{`{"hooks": {"defaults": {"approval": "ask"}}}`, `hooks.defaults.approval: "ask" is not "deny" or "allow"`},
		{`{"hooks": {"defaults": {"approval": true}}}`, "hooks.defaults.approval: want a string, got"},
		{`{"hooks": {"processes": []}}`, "hooks.processes: want an object"},
		{`{"hooks": {"processes": {"a": {"intercpt": []}}}}`, "hooks.processes.a.intercpt: unknown key"},
		{`{"hooks": {"processes": {"a": {"priority": "high"}}}}`, "hooks.processes.a.priority: want an integer, got string"},
		{`{"hooks": {"processes": {"a": {"command": "python3 hook.py"}}}}`, "hooks.processes.a.command: want a list of strings, got string"},
		{`{"hooks": {"processes": {"a": {"enabled": true}}}}`, "hooks.processes.a.command: required"},
		{`{"hooks": {"processes": {"a": {"command": [""]}}}}`, "hooks.processes.a.command[0]: must name a program"},
		{`{"hooks": {"processes": {"a": {"transport": "tcp"}}}}`, `hooks.processes.a.transport: "tcp" is not supported`},
		{`{"hooks": {"processes": {"a": {"intercept": ["before_tool", "befor_llm"]}}}}`, `hooks.processes.a.intercept[1]: unknown stage "befor_llm"`},
		{`{"hooks": {"processes": {"a": {"observe": ["tool_start"]}}}}`, `hooks.processes.a.observe[0]: unknown event kind "tool_start"`},
		{`{"hooks": {"processes": {"a": {"observe": ["agent.[tool"]}}}}`, `hooks.processes.a.observe[0]: bad glob`},
		{`{"hooks": {"processes": {"a": {"timeout_ms": -5}}}}`, "hooks.processes.a.timeout_ms: must not be negative"},
		{`{"hooks": {"processes": {"a": {"failure_policy": {"before_tool": "maybe"}}}}}`, `hooks.processes.a.failure_policy.before_tool: "maybe" is not "open" or "closed"`},
		{`{"hooks": {"processes": {"a": {"failure_policy": {"observe": "open"}}}}}`, "hooks.processes.a.failure_policy.observe: unknown stage"},
		{`{"hooks": {"processes": {"a": {"restart": {"max_restarts": -1}}}}}`, "hooks.processes.a.restart.max_restarts: must not be negative"},
		{`{"hooks": {"processes": {"a": {"restart": {"forever": true}}}}}`, "hooks.processes.a.restart.forever: unknown key"},
		{`{"hooks": {"builtins": {"b": {"enabled": true, "settings": {}}}}}`, "hooks.builtins.b.settings: unknown key"},
	} {
		_, err := ParseConfig([]byte(tc.config))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n  error %v\n  want  %q", tc.config, err, tc.want)
		}
	}
}

func TestLoadConfigResolvesDirAgainstTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	os.WriteFile(path, []byte(`{"hooks": {"processes": {
		"rel": {"command": ["x"], "dir": "script"},
		"abs": {"command": ["x"], "dir": "/srv"},
		"none": {"command": ["x"]}}}}`), 0o644)
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Hooks.Processes
	if p["rel"].Dir != filepath.Join(dir, "script") || p["abs"].Dir != "/srv" || p["none"].Dir != "" {
		t.Errorf("dirs: rel %q, abs %q, none %q", p["rel"].Dir, p["abs"].Dir, p["none"].Dir)
	}
	os.WriteFile(path, []byte(`{"hooks": {"processes": {"x": {"priorty": 1}}}}`), 0o644)
	if _, err := LoadConfig(path); err == nil || !strings.HasPrefix(err.Error(), path+": hooks.processes.x.priorty: unknown key") {
		t.Errorf("err = %v, want the file and the key named", err)
	}
}

func TestStagesAreTheMethodsAHookAnswersUnderAMode(t *testing.T) {
	var want []string
	for _, info := range protocol.Methods {
		if info.Mode != "" && !info.Notification {
			want = append(want, strings.TrimPrefix(info.Name, "hook."))
		}
	}
	if got := slices.Sorted(slices.Values(Stages)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("Stages %q, the method table %q", Stages, want)
	}
}

// Every key at fault is listed once, where ParseConfig stops at the
// first: a value that did not decode is not checked again.
func TestHooksProblemsListsEveryKeyAtFaultOnce(t *testing.T) {
	probs := HooksProblems([]byte(`{"hooks": {"processes": {"a": {"enabled": true, "command": ["x"],
		"intercept": ["befor_tool", 3], "timeout_ms": "5s", "colour": "red"}}, "defaults": {"approval": "maybe"}}}`))
	var got []string
	for _, p := range probs {
		got = append(got, p.Error())
	}
	want := []string{
		"hooks.processes.a.colour: unknown key (known: command, dir, enabled, env, env_clear, env_passthrough, failure_policy, intercept, observe, observe_overflow, priority, restart, timeout_ms, transport)",
		"hooks.processes.a.intercept[1]: want a string, got number",
		"hooks.processes.a.timeout_ms: want an integer, got string",
		`hooks.defaults.approval: "maybe" is not "deny" or "allow"`,
		`hooks.processes.a.intercept[0]: unknown stage "befor_tool" (known: before_llm, after_llm, before_tool, approve_tool, after_tool)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := probs[4]; p.Word != "befor_tool" || !slices.Equal(p.Known, Stages) {
		t.Errorf("the unknown stage and the stages it could be: %+v", p)
	}
}
