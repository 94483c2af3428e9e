package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestAHooksFileBesidePicoClawsConfigAddsHookwiresSettingsToItsProcesses(t *testing.T) {
	dir := t.TempDir()
	config, overlay := filepath.Join(dir, "config.json"), filepath.Join(dir, "hooks.json")
	os.WriteFile(config, []byte(`{"version": 3, "session": {}, "hooks": {"defaults": {"interceptor_timeout_ms": 70}, "processes": {"w": {"enabled": true, "command": ["w"], "observe": ["all", ""], "intercept": ["", "before_tool"]}}}}`), 0o644)
	os.WriteFile(overlay, []byte(`{"hooks": {"defaults": {"approval": "allow"}, "processes": {"w": {"timeout_ms": 2000, "failure_policy": {"before_tool": "closed"}}}}}`), 0o644)
	cfg, err := LoadPicoClaw(config, overlay)
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Hooks.Processes["w"]
	switch {
	case !cfg.Hooks.Enabled:
		t.Error("hooks.enabled is absent: enabled, as in PicoClaw")
	case cfg.Hooks.Defaults.InterceptorTimeoutMS != 70 || cfg.Hooks.Defaults.ApprovalTimeoutMS != 0:
		t.Errorf("PicoClaw's hooks.defaults were not kept beside hookwire's: %+v", cfg.Hooks.Defaults)
	case len(cfg.Warnings) > 0:
		t.Errorf("warnings of a file PicoClaw takes as it is: %q", cfg.Warnings)
	case cfg.Hooks.Defaults.Approval != ApprovalAllow || w.TimeoutMS != 2000 || w.FailurePolicy["before_tool"] != "closed":
		t.Errorf("hookwire's settings were not added: %+v, %+v", cfg.Hooks.Defaults, w)
	case len(w.Observe) != 1 || w.Observe[0] != "*" || !slices.Equal(w.Intercept, []string{"before_tool", "after_tool"}) || w.Command[0] != "w":
		t.Errorf("PicoClaw's settings changed: %+v", w)
	}
}

// PicoClaw grants the stages of its intercept list in pairs.
func TestPicoClawGrantsStagesInPairs(t *testing.T) {
	for _, c := range []struct{ intercept, granted []string }{
		{[]string{"before_tool"}, []string{"before_tool", "after_tool"}},
		{[]string{"after_tool"}, []string{"before_tool", "after_tool"}},
		{[]string{"before_llm", "before_tool"}, []string{"before_llm", "after_llm", "before_tool", "after_tool"}},
		{[]string{"after_llm"}, []string{"before_llm", "after_llm"}},
		{[]string{"approve_tool"}, []string{"approve_tool"}},
		{[]string{"", "nonsense"}, nil},
	} {
		if got := PairedStages(c.intercept); !slices.Equal(got, c.granted) {
			t.Errorf("%q grants %q, want %q", c.intercept, got, c.granted)
		}
	}
}

// An enabled that is not true or false is one problem, and the stages of
// that process are checked all the same: one pass finds both.
func TestPicoClawProblemsSaysEachKeyOnceAndGoesOnPastABadEnabled(t *testing.T) {
	probs := PicoClawProblems([]byte(`{"processes": {"a": {"enabled": "yes", "command": ["x"], "intercept": ["befor_tool"]}}}`))
	var got []string
	for _, p := range probs {
		got = append(got, p.Key+": "+p.Reason)
	}
	want := []string{"hooks.processes.a.enabled: want true or false", `hooks.processes.a.intercept[0]: unknown stage "befor_tool"`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
