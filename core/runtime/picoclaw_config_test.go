package runtime

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAHooksFileBesidePicoClawsConfigAddsHookwiresSettingsToItsProcesses(t *testing.T) {
	dir := t.TempDir()
	config, overlay := filepath.Join(dir, "config.json"), filepath.Join(dir, "hooks.json")
	os.WriteFile(config, []byte(`{"providers": {}, "hooks": {"processes": {"w": {"enabled": true, "command": ["w"], "observe": ["all", ""], "intercept": ["", "before_tool"]}}}}`), 0o644)
	os.WriteFile(overlay, []byte(`{"hooks": {"defaults": {"approval": "allow"}, "processes": {"w": {"timeout_ms": 2000, "failure_policy": {"before_tool": "closed"}}}}}`), 0o644)
	cfg, err := LoadPicoClawConfig(config, overlay)
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Hooks.Processes["w"]
	switch {
	case !cfg.Hooks.Enabled:
		t.Error("hooks.enabled is absent: enabled, as in PicoClaw")
	case cfg.Hooks.Defaults.Approval != ApprovalAllow || w.TimeoutMS != 2000 || w.FailurePolicy["before_tool"] != "closed":
		t.Errorf("hookwire's settings were not added: %+v, %+v", cfg.Hooks.Defaults, w)
	case len(w.Observe) != 1 || w.Observe[0] != "*" || len(w.Intercept) != 1 || w.Intercept[0] != "before_tool" || w.Command[0] != "w":
		t.Errorf("PicoClaw's settings changed: %+v", w)
	}
}
