package skillhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Timing is one of the five points of a turn at which a hook's message is
// inserted.
type Timing string

// Timings, in the order a turn meets them.
const (
	AfterUserInput   Timing = "after_user_input"   // from the turn's first LLM call to its end
	BeforePlanning   Timing = "before_planning"    // only the planning calls
	BeforeFirstAgent Timing = "before_first_agent" // from the first agent round to the end of the loop
	BeforeEachAgent  Timing = "before_each_agent"  // one agent round, replaced by the next one's
	AfterToolCall    Timing = "after_tool_call"    // after a tool, for the next LLM call
)

// Timings lists every timing.
var Timings = []Timing{AfterUserInput, BeforePlanning, BeforeFirstAgent, BeforeEachAgent, AfterToolCall}

// Roles a hook's message may have.
var Roles = []string{"system", "user"}

// Hook is one prompt hook a skill declares: an entry of its
// hooks/hooks.json, with the text of its prompt file.
type Hook struct {
	// Skill is the skill's folder name.
	Skill string
	// Name identifies the hook within its skill.
	Name string
	// File is the prompt file, relative to the skill's hooks folder.
	File string
	// Timing says when the message is inserted and removed.
	Timing Timing
	// Role is the message's role: "system" or "user".
	Role string
	// Persistent hooks stay in the session once inserted.
	Persistent bool
	// ToolFilter, for an after_tool_call hook, lists the tools after which
	// it fires; nil means after every tool.
	ToolFilter []string
	// Content is the prompt file's text, without surrounding white space.
	Content string
}

// Error is a fault in a skill's hooks: it names the skill, the hook (by
// name, or by position when it has none) and the field.
type Error struct {
	Skill, Hook, Field string
	Err                error
}

func (e *Error) Error() string {
	at := "skill " + e.Skill
	if e.Hook != "" {
		at += ", hook " + e.Hook
	}
	if e.Field != "" {
		at += ", " + e.Field
	}
	return at + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads the prompt hooks of the given skills, sub-folders of
// skillsDir, each from <skill>/hooks/hooks.json and the prompt files it
// names; a skill with no hooks folder has none. A nil skills means every
// sub-folder of skillsDir, in name order. Hooks come in the order of
// skills, then of their hooks.json: the order in which hooks of the same
// timing are inserted.
func Load(skillsDir string, skills []string) ([]Hook, error) {
	if skills == nil {
		entries, err := os.ReadDir(skillsDir)
		if err != nil {
			return nil, err
		}
		skills = []string{}
		for _, e := range entries {
			if e.IsDir() {
				skills = append(skills, e.Name())
			}
		}
	}
	var hooks []Hook
	for i, skill := range skills {
		if !filepath.IsLocal(skill) || strings.ContainsRune(skill, filepath.Separator) {
			return nil, &Error{Skill: fmt.Sprintf("%q", skill), Err: errors.New("not the name of a folder")}
		}
		if slices.Contains(skills[:i], skill) {
			return nil, &Error{Skill: skill, Err: errors.New("enabled twice")}
		}
		info, err := os.Lstat(filepath.Join(skillsDir, skill))
		if err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, &Error{Skill: skill, Err: errLink}
		}
		if err != nil || !info.IsDir() {
			return nil, &Error{Skill: skill, Err: fmt.Errorf("no such skill folder in %s", skillsDir)}
		}
		dir := filepath.Join(skillsDir, skill, "hooks")
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := noLink(filepath.Join(skillsDir, skill), "hooks"); err != nil {
			return nil, &Error{Skill: skill, Err: err}
		}
		more, err := loadSkill(skill, dir)
		if err != nil {
			return nil, err
		}
		hooks = append(hooks, more...)
	}
	return hooks, nil
}

// fields are the keys of a hooks.json entry, as the documents' table
// lists them.
var fields = []string{"name", "file", "timing", "role", "persistent", "tool_filter"}

func loadSkill(skill, dir string) ([]Hook, error) {
	data, err := readNoLink(dir, "hooks.json")
	if err != nil {
		return nil, &Error{Skill: skill, Err: err}
	}
	fail := func(hook, field string, format string, args ...any) error {
		return &Error{Skill: skill, Hook: hook, Field: field, Err: fmt.Errorf(format, args...)}
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fail("", "", "hooks/hooks.json: not a JSON object: %v", err)
	}
	for key := range doc {
		if key != "hooks" {
			return nil, fail("", key, `unknown key in hooks/hooks.json (known: hooks)`)
		}
	}
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(doc["hooks"], &entries); err != nil || entries == nil {
		return nil, fail("", "hooks", "must be a list of hook objects")
	}
	hooks := make([]Hook, 0, len(entries))
	for i, entry := range entries {
		h := Hook{Skill: skill}
		name := fmt.Sprintf("#%d", i+1) // for a hook with no name
		if json.Unmarshal(entry["name"], &h.Name) == nil && strings.TrimSpace(h.Name) != "" {
			name = h.Name
		}
		for _, key := range sortedKeys(entry) {
			if !slices.Contains(fields, key) {
				return nil, fail(name, key, "unknown key (known: %s)", strings.Join(fields, ", "))
			}
		}
		for _, key := range fields[:5] {
			if _, ok := entry[key]; !ok {
				return nil, fail(name, key, "required")
			}
		}
		if name != h.Name {
			return nil, fail(name, "name", "must be a non-empty string")
		}
		if j := slices.IndexFunc(hooks, func(o Hook) bool { return o.Name == h.Name }); j >= 0 {
			return nil, fail(name, "name", "already the name of hook #%d", j+1)
		}
		if json.Unmarshal(entry["timing"], &h.Timing) != nil || !slices.Contains(Timings, h.Timing) {
			return nil, fail(name, "timing", "%s is not a timing (known: %s)", entry["timing"], joined(Timings))
		}
		if json.Unmarshal(entry["role"], &h.Role) != nil || !slices.Contains(Roles, h.Role) {
			return nil, fail(name, "role", `%s is not a role (known: "system", "user")`, entry["role"])
		}
		if json.Unmarshal(entry["persistent"], &h.Persistent) != nil || bytes.Equal(entry["persistent"], []byte("null")) {
			return nil, fail(name, "persistent", "%s is not true or false", entry["persistent"])
		}
		if raw, ok := entry["tool_filter"]; ok {
			if h.Timing != AfterToolCall {
				return nil, fail(name, "tool_filter", "only after_tool_call hooks take one (this one's timing is %s)", h.Timing)
			}
			if json.Unmarshal(raw, &h.ToolFilter) != nil || h.ToolFilter == nil || slices.Contains(h.ToolFilter, "") {
				return nil, fail(name, "tool_filter", "must be a list of tool names")
			}
			if len(h.ToolFilter) == 0 {
				return nil, fail(name, "tool_filter", "empty: it would match no tool (leave it out to match every tool)")
			}
		}
		if json.Unmarshal(entry["file"], &h.File) != nil || h.File == "" {
			return nil, fail(name, "file", "must be the name of a .md file in the hooks folder")
		}
		if !filepath.IsLocal(h.File) || filepath.Ext(h.File) != ".md" {
			return nil, fail(name, "file", "%q is not a .md file in the hooks folder", h.File)
		}
		text, err := readNoLink(dir, h.File)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fail(name, "file", "hooks/%s does not exist", filepath.ToSlash(h.File))
		} else if err != nil {
			return nil, fail(name, "file", "%v", err)
		}
		if h.Content = strings.TrimSpace(string(text)); h.Content == "" {
			return nil, fail(name, "file", "hooks/%s is empty", filepath.ToSlash(h.File))
		}
		hooks = append(hooks, h)
	}
	return hooks, nil
}

// errLink is the fault of a symbolic link where a skill's hooks are read:
// a prompt file such as leak.md -> /etc/passwd would go to the LLM.
var errLink = errors.New("a symbolic link: skill hooks follow none")

// noLink checks that none of the names, each in the folder of the one
// before, starting at base, is a symbolic link. A name that does not exist
// is left to the reader to report.
func noLink(base string, names ...string) error {
	rel := ""
	for _, name := range names {
		rel = filepath.Join(rel, name)
		info, err := os.Lstat(filepath.Join(base, rel))
		if err != nil {
			return nil
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is %w", filepath.ToSlash(rel), errLink)
		}
	}
	return nil
}

// MaxFileSize bounds a file a skill's hooks are read from.
const MaxFileSize = 1 << 20

// readNoLink reads the file rel of a skill's hooks folder, refusing a
// symbolic link at any step of its path, the file included, and anything
// but a regular file of one link under MaxFileSize. The checks are made on
// the file opened, not on its name, so that nothing swapped in between is
// read (openNoFollow, per system).
func readNoLink(hooksDir, rel string) ([]byte, error) {
	names := append([]string{"hooks"}, strings.Split(filepath.ToSlash(rel), "/")...)
	f, err := openNoFollow(filepath.Dir(hooksDir), names)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	at := filepath.ToSlash(filepath.Join(names...))
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%v): skill hooks read regular files only", at, info.Mode().Type())
	case links(info) > 1:
		return nil, fmt.Errorf("%s has %d hard links: one could be any file of yours, so skill hooks read files of one link only (copy it instead)", at, links(info))
	case info.Size() > MaxFileSize:
		return nil, fmt.Errorf("%s is %d bytes, over the %d a skill's hook file may have", at, info.Size(), MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err == nil && len(data) > MaxFileSize {
		err = fmt.Errorf("%s grew over the %d bytes a skill's hook file may have", at, MaxFileSize)
	}
	return data, err
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func joined(ts []Timing) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
