package skillhooks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/skillhooks"
)

var builtins = map[string]runtime.Builtin{skillhooks.Name: skillhooks.Builtin}

// skill_hooks is a built-in of a runtime given it, and its skills_dir is
// taken from the configuration file's folder, as a process's dir is.
func TestSkillHooksIsABuiltinOfARuntimeGivenIt(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "skills", "notes", "hooks"), 0o755)
	os.WriteFile(filepath.Join(dir, "skills", "notes", "hooks", "hooks.json"), []byte(`{"hooks": [
		{"name": "lang", "file": "lang.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "skills", "notes", "hooks", "lang.md"), []byte("Answer in French.\n"), 0o644)
	path := filepath.Join(dir, "hooks.json")
	os.WriteFile(path, []byte(`{"hooks": {"enabled": true, "builtins": {
		"skill_hooks": {"enabled": true, "priority": 5, "config": {"skills_dir": "skills", "skills": ["notes"]}}}}}`), 0o644)
	cfg, err := runtime.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runtime.New(cfg, runtime.Options{Builtins: builtins})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Hooks(); len(h) != 1 || h[0].Name != "skill_hooks" || !h[0].InProcess || h[0].Priority != 5 {
		t.Errorf("hooks %+v", h)
	}
	hi := "hi"
	req, d := r.BeforeLLM(context.Background(), protocol.BeforeLLMParams{Model: "m", Messages: []protocol.Message{{Role: "user", Content: &hi}}})
	if !d.Continue() || len(req.Messages) != 2 || *req.Messages[1].Content != "Answer in French." {
		t.Errorf("decision %+v, messages %s", d, must(protocol.Marshal(req.Messages)))
	}
}

func TestSkillHooksConfigFaultsAreNamed(t *testing.T) {
	for config, want := range map[string]string{
		`{"skills": ["notes"]}`:                               "hooks.builtins.skill_hooks.config: skills_dir: required: the folder of the skills",
		`{"skills_dir": "x", "skill": ["notes"]}`:             "hooks.builtins.skill_hooks.config: skill: unknown key (known: skills, skills_dir)",
		`{"skills_dir": "/nonexistent", "skills": ["notes"]}`: "hooks.builtins.skill_hooks.config: skill notes: no such skill folder in /nonexistent",
	} {
		cfg, err := runtime.ParseConfig([]byte(`{"hooks": {"enabled": true, "builtins": {"skill_hooks": {"enabled": true, "config": ` + config + `}}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runtime.New(cfg, runtime.Options{Builtins: builtins}); err == nil || err.Error() != want {
			t.Errorf("config %s: %v, want %q", config, err, want)
		}
	}
	cfg, _ := runtime.ParseConfig([]byte(`{"hooks": {"enabled": true, "builtins": {"audit": {"enabled": true}}}}`))
	if _, err := runtime.New(cfg, runtime.Options{Builtins: builtins}); err == nil || !strings.HasSuffix(err.Error(), "(it has: skill_hooks)") {
		t.Errorf("an unknown built-in: %v, want the list to name skill_hooks", err)
	}
}

func must(b []byte, _ error) []byte { return b }
