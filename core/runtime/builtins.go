package runtime

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/hookwire/hookwire/core/internal/strict"
	"github.com/hookwire/hookwire/core/skillhooks"
)

// SkillHooks is the name of the built-in hook that every runtime has, with
// no Options.Builtins entry: the declarative prompt hooks of skills
// (package skillhooks). Its config:
//
//	{"skills_dir": "skills", "skills": ["notes"]}
//
// skills_dir is the folder of the skills, relative to the configuration
// file's folder; skills lists the enabled ones, every sub-folder when left
// out.
const SkillHooks = "skill_hooks"

// SkillHooksConfig is the config of the skill_hooks built-in.
type SkillHooksConfig struct {
	SkillsDir string   `json:"skills_dir"`
	Skills    []string `json:"skills"`
}

// standardBuiltin is the factory of a built-in every runtime has; an entry
// of Options.Builtins of the same name replaces it. base is the folder of
// the configuration file, empty when the configuration came from memory.
func standardBuiltin(name, base string) func(json.RawMessage) (any, error) {
	if name != SkillHooks {
		return nil
	}
	return func(raw json.RawMessage) (any, error) {
		var c SkillHooksConfig
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
			c.SkillsDir = filepath.Join(base, c.SkillsDir)
		}
		hooks, err := skillhooks.Load(c.SkillsDir, c.Skills)
		if err != nil {
			return nil, err
		}
		return skillhooks.New(hooks), nil
	}
}

// builtinNames are the built-ins a runtime made with opts can enable.
func builtinNames(opts Options) []string {
	names := slices.Collect(maps.Keys(opts.Builtins))
	if !slices.Contains(names, SkillHooks) {
		names = append(names, SkillHooks)
	}
	slices.Sort(names)
	return names
}
