package skillhooks

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/hookwire/hookwire/core/internal/strict"
)

// Name is the name of the built-in in a hooks configuration.
const Name = "skill_hooks"

// Config is the config of the skill_hooks built-in:
//
//	{"skills_dir": "skills", "skills": ["notes"]}
//
// skills_dir is the folder of the skills, relative to the configuration
// file's folder; skills lists the enabled ones, every sub-folder when left
// out.
type Config struct {
	SkillsDir string   `json:"skills_dir"`
	Skills    []string `json:"skills"`
}

// Builtin makes the skill_hooks built-in from its config, for a runtime's
// Options.Builtins: dir is the folder of the configuration file.
func Builtin(raw json.RawMessage, dir string) (any, error) {
	var c Config
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if err := strict.Decode(raw, &c); err != nil {
		return nil, err
	}
	if c.SkillsDir == "" {
		return nil, fmt.Errorf("skills_dir: required: the folder of the skills")
	}
	if !filepath.IsAbs(c.SkillsDir) {
		c.SkillsDir = filepath.Join(dir, c.SkillsDir)
	}
	hooks, err := Load(c.SkillsDir, c.Skills)
	if err != nil {
		return nil, err
	}
	return New(hooks), nil
}
