package skillhooks_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/skillhooks"
)

const exampleSkills = "../../examples/skill-prompts/skills"

func TestTheExampleSkillHasOneHookOfEachTiming(t *testing.T) {
	hooks, err := skillhooks.Load(exampleSkills, []string{"notes"})
	if err != nil {
		t.Fatal(err)
	}
	var timings []skillhooks.Timing
	for _, h := range hooks {
		timings = append(timings, h.Timing)
	}
	if !reflect.DeepEqual(timings, skillhooks.Timings) {
		t.Errorf("timings %v, want one of each in hooks.json order %v", timings, skillhooks.Timings)
	}
	want := skillhooks.Hook{
		Skill: "notes", Name: "truncated-content-hint", File: "truncated-content-hint.md", Timing: skillhooks.AfterToolCall,
		Role: "system", ToolFilter: []string{"read_file"}, Content: "If a file looks cut off, say so instead of guessing the rest.",
	}
	if got := hooks[4]; !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if !hooks[0].Persistent || hooks[0].Role != "system" || hooks[3].Role != "user" {
		t.Errorf("reply-language must be a persistent system hook and one-step a user hook: %+v", hooks)
	}
}

// skillsDir makes a skills folder: files maps a path under it to content.
func skillsDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const hintMD = "Say when a file looks cut off.\n"

func TestEveryFaultNamesTheSkillTheHookAndTheField(t *testing.T) {
	for _, tc := range []struct {
		about, hooks    string
		skill, hook, at string
		msg             string
	}{
		{"missing file", `{"hooks": [{"name": "h", "file": "gone.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
			"s", "h", "file", "skill s, hook h, file: hooks/gone.md does not exist"},
		{"unknown timing", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "before_agent", "role": "system", "persistent": false}]}`,
			"s", "h", "timing", `skill s, hook h, timing: "before_agent" is not a timing (known: after_user_input, before_planning, before_first_agent, before_each_agent, after_tool_call)`},
		{"unknown role", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "after_user_input", "role": "assistant", "persistent": false}]}`,
			"s", "h", "role", `skill s, hook h, role: "assistant" is not a role (known: "system", "user")`},
		{"duplicate name", `{"hooks": [
			{"name": "h", "file": "hint.md", "timing": "after_user_input", "role": "system", "persistent": false},
			{"name": "h", "file": "hint.md", "timing": "after_tool_call", "role": "user", "persistent": true}]}`,
			"s", "h", "name", "skill s, hook h, name: already the name of hook #1"},
		{"tool_filter on another timing", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "before_each_agent", "role": "system", "persistent": false, "tool_filter": ["read_file"]}]}`,
			"s", "h", "tool_filter", "skill s, hook h, tool_filter: only after_tool_call hooks take one (this one's timing is before_each_agent)"},
		{"empty tool_filter", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "after_tool_call", "role": "system", "persistent": false, "tool_filter": []}]}`,
			"s", "h", "tool_filter", "skill s, hook h, tool_filter: empty: it would match no tool (leave it out to match every tool)"},
		{"persistent left out", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "after_user_input", "role": "system"}]}`,
			"s", "h", "persistent", "skill s, hook h, persistent: required"},
		{"persistent not a bool", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "after_user_input", "role": "system", "persistent": "yes"}]}`,
			"s", "h", "persistent", `skill s, hook h, persistent: "yes" is not true or false`},
		{"no name, second hook", `{"hooks": [
			{"name": "a", "file": "hint.md", "timing": "after_user_input", "role": "system", "persistent": false},
			{"file": "hint.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
			"s", "#2", "name", "skill s, hook #2, name: required"},
		{"unknown key", `{"hooks": [{"name": "h", "file": "hint.md", "timing": "after_user_input", "role": "system", "persistant": false}]}`,
			"s", "h", "persistant", "skill s, hook h, persistant: unknown key (known: name, file, timing, role, persistent, tool_filter)"},
		{"file outside the hooks folder", `{"hooks": [{"name": "h", "file": "../SKILL.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
			"s", "h", "file", `skill s, hook h, file: "../SKILL.md" is not a .md file in the hooks folder`},
		{"not Markdown", `{"hooks": [{"name": "h", "file": "hint.txt", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
			"s", "h", "file", `skill s, hook h, file: "hint.txt" is not a .md file in the hooks folder`},
		{"empty prompt", `{"hooks": [{"name": "h", "file": "blank.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
			"s", "h", "file", "skill s, hook h, file: hooks/blank.md is empty"},
		{"hooks not a list", `{"hooks": {"name": "h"}}`,
			"s", "", "hooks", "skill s, hooks: must be a list of hook objects"},
	} {
		t.Run(tc.about, func(t *testing.T) {
			dir := skillsDir(t, map[string]string{
				"s/hooks/hooks.json": tc.hooks, "s/hooks/hint.md": hintMD, "s/hooks/hint.txt": hintMD, "s/hooks/blank.md": " \n", "s/SKILL.md": "# s\n",
			})
			_, err := skillhooks.Load(dir, []string{"s"})
			var e *skillhooks.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a *skillhooks.Error", err)
			}
			if e.Skill != tc.skill || e.Hook != tc.hook || e.Field != tc.at || err.Error() != tc.msg {
				t.Errorf("got skill %q, hook %q, field %q: %v\nwant skill %q, hook %q, field %q: %s", e.Skill, e.Hook, e.Field, err, tc.skill, tc.hook, tc.at, tc.msg)
			}
		})
	}
}

func TestSkillsAreReadInOrderAndOnlyWhenEnabled(t *testing.T) {
	hook := func(name string) string {
		return `{"hooks": [{"name": "` + name + `", "file": "hint.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`
	}
	dir := skillsDir(t, map[string]string{
		"b/hooks/hooks.json": hook("from-b"), "b/hooks/hint.md": hintMD,
		"a/hooks/hooks.json": hook("from-a"), "a/hooks/hint.md": hintMD,
		"plain/SKILL.md": "a skill without hooks\n",
	})
	names := func(hooks []skillhooks.Hook) string {
		var s []string
		for _, h := range hooks {
			s = append(s, h.Skill+"/"+h.Name)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		skills []string
		want   string
	}{
		{nil, "a/from-a b/from-b"}, // every folder, by name
		{[]string{"b", "plain", "a"}, "b/from-b a/from-a"},
		{[]string{"plain"}, ""},
		{[]string{}, ""},
	} {
		hooks, err := skillhooks.Load(dir, tc.skills)
		if err != nil || names(hooks) != tc.want {
			t.Errorf("Load(%q): %q, %v; want %q", tc.skills, names(hooks), err, tc.want)
		}
	}
	for skills, want := range map[string]string{
		"missing": "skill missing: no such skill folder in " + dir,
		"a,a":     "skill a: enabled twice",
		"../a":    `skill "../a": not the name of a folder`,
	} {
		if _, err := skillhooks.Load(dir, strings.Split(skills, ",")); err == nil || err.Error() != want {
			t.Errorf("Load(%q): %v, want %q", skills, err, want)
		}
	}
	os.Remove(filepath.Join(dir, "a", "hooks", "hooks.json"))
	if _, err := skillhooks.Load(dir, []string{"a"}); err == nil || !strings.HasPrefix(err.Error(), "skill a: open ") {
		t.Errorf("a hooks folder without hooks.json: %v", err)
	}
}
