package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
)

// PicoClaw's configuration file (config.json) holds the agent's whole
// configuration; its hooks section is the hooks block of Config without
// hookwire's extensions (hooks.defaults and its three timeouts are
// PicoClaw's own: it writes them in the config of every new user).
// PicoClaw checks the whole file for unknown keys, so a file that carries
// an extension fails its load: hookwire's own settings live in hookwire's
// hooks.json format instead (an overlay, see LoadPicoClaw), which
// PicoClaw never reads. The sections other than hooks are checked as
// PicoClaw's loader checks them (PicoClawFileProblems), and not read.

// Problem is a key of a hooks section that is refused: by hookwire
// (HooksProblems) or by PicoClaw (PicoClawProblems).
type Problem struct {
	// Key is the key's path, such as "hooks.processes.audit.timeout_ms";
	// "" is the whole file.
	Key string
	// Reason says why it is refused.
	Reason string
	// Word, for a name that means nothing there (a key, a stage, an
	// event), is that name, and Known the names it could be, which the
	// error lists; Near, when they are too many to list, is what a
	// suggestion is made from all the same.
	Word  string
	Known []string
	Near  []string
	// Warning: the file is accepted, but the host does something with it
	// that its author should know of.
	Warning bool
}

func (p Problem) Error() string {
	s := p.Reason
	if p.Key != "" {
		s = p.Key + ": " + s
	}
	if len(p.Known) > 0 {
		s += " (known: " + strings.Join(p.Known, ", ") + ")"
	}
	return s
}

// picoClawKeys are the keys PicoClaw knows in each object of its hooks section.
var picoClawKeys = map[string][]string{
	"hooks":     {"enabled", "defaults", "builtins", "processes"},
	"defaults":  {"observer_timeout_ms", "interceptor_timeout_ms", "approval_timeout_ms"},
	"builtins":  {"enabled", "priority", "config"},
	"processes": {"enabled", "priority", "transport", "command", "dir", "env", "observe", "intercept"},
}

// hookwireKeys are hookwire's extensions, named when PicoClaw refuses one.
var hookwireKeys = []string{"timeout_ms", "failure_policy", "restart", "approval", "respond", "approve_respond",
	"env_passthrough", "env_clear", "observe_overflow"}

// PicoClawProblems lists, key by key, what PicoClaw refuses in a hooks
// section (the value of "hooks", as JSON). None means PicoClaw loads it.
func PicoClawProblems(hooks json.RawMessage) []Problem {
	var probs []Problem
	add := func(key, format string, a ...any) {
		probs = append(probs, Problem{Key: key, Reason: fmt.Sprintf(format, a...)})
	}
	top, ok := object(hooks, "hooks", add)
	if !ok {
		return probs
	}
	put := func(p Problem) { probs = append(probs, p) }
	unknownKeys("hooks", top, picoClawKeys["hooks"], put, add)
	// With hooks off, PicoClaw mounts nothing and checks no hook
	// (pkg/agent/hook_mount.go, loadConfiguredHooks); its loader still
	// checks keys and types.
	enabled := true
	if !want(top, "hooks.enabled", &enabled, add) {
		enabled = true
	}
	if defaults, ok := object(top["defaults"], "hooks.defaults", add); ok {
		unknownKeys("hooks.defaults", defaults, picoClawKeys["defaults"], put, add)
		for _, k := range picoClawKeys["defaults"] {
			// Any value up to 0 means the default (hookTimeoutFromMS).
			want(defaults, "hooks.defaults."+k, new(int), add)
		}
	}
	for _, section := range []string{"builtins", "processes"} {
		entries, ok := object(top[section], "hooks."+section, add)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(entries)) {
			at := "hooks." + section + "." + name
			e, ok := object(entries[name], at, add)
			if !ok {
				continue
			}
			unknownKeys(at, e, picoClawKeys[section], put, add)
			want(e, at+".priority", new(int), add)
			if section == "processes" {
				processProblems(at, e, enabled, add, put)
				continue
			}
			var on bool
			if want(e, at+".enabled", &on, add) && on && enabled {
				add(at, "builtin hook %q is not registered: PicoClaw registers none of its own (a program that embeds it may), so the agent fails to start", name)
			}
		}
	}
	return probs
}

// processProblems checks a process as PicoClaw's loader does (types), then,
// when hooks and the process are enabled, as its start does
// (pkg/agent/hook_mount.go, processHookOptionsFromConfig): where PicoClaw
// stops at the first fault and fails the agent's start, this lists each.
func processProblems(at string, e map[string]json.RawMessage, hooksOn bool, add func(key, format string, a ...any), put func(Problem)) {
	var enabled bool
	var transport, dir string
	var command, observe, intercept []string
	var env map[string]string
	// An enabled that is not true or false is refused already; the rest
	// is checked as if it were true, so that one pass finds every fault.
	if !want(e, at+".enabled", &enabled, add) {
		enabled = true
	}
	want(e, at+".transport", &transport, add)
	commandRead := want(e, at+".command", &command, add)
	want(e, at+".dir", &dir, add)
	want(e, at+".env", &env, add)
	want(e, at+".observe", &observe, add)
	want(e, at+".intercept", &intercept, add)
	if !enabled || !hooksOn {
		return
	}
	if transport != "" && transport != "stdio" {
		add(at+".transport", `%q is not supported (only "stdio")`, transport)
	}
	if commandRead && (len(command) == 0 || command[0] == "") {
		add(at+".command", "required: the program to run and its arguments")
	}
	// The first of "", "*" and "all" observes everything, whatever follows.
	for i, s := range observe {
		if s == "" || s == "*" || s == "all" {
			break
		}
		if why := picoClawObserve(s); why != "" {
			put(Problem{Key: fmt.Sprintf("%s.observe[%d]", at, i), Reason: why, Word: s, Near: PicoClawEvents()})
		}
	}
	stages := false
	for i, s := range intercept {
		switch {
		case ValidStage(s):
			stages = true
		case s != "":
			put(Problem{Key: fmt.Sprintf("%s.intercept[%d]", at, i), Reason: fmt.Sprintf("unknown stage %q", s), Word: s, Known: Stages})
			stages = true // refused already
		}
	}
	if !stages && len(observe) == 0 {
		add(at, `no hook modes enabled: PicoClaw fails to start the agent; give it "intercept" stages or an "observe" list`)
	}
}

// picoClawObserve says why PicoClaw refuses an observe entry, or "": it
// takes its event kinds and their older names, and "", "*" and "all" for
// every event, and fails the agent's start on any other name.
func picoClawObserve(s string) string {
	const fails = "unsupported observe event %q, which fails the agent's start: "
	switch {
	case slices.Contains(picoClaw.Events, s) || picoClaw.LegacyEvents[s] != "":
		return ""
	case strings.ContainsAny(s, "*?["):
		return fmt.Sprintf(fails+`PicoClaw takes event kinds, or "all", "*" or "" for every event (globs are a hookwire extension)`, s)
	case s == protocol.KindSessionStart || s == protocol.KindSessionEnd:
		return fmt.Sprintf(fails+"PicoClaw has no session events (a hookwire extension)", s)
	}
	return fmt.Sprintf(fails+"not an event PicoClaw knows", s)
}

func object(raw json.RawMessage, at string, add func(key, format string, a ...any)) (map[string]json.RawMessage, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		add(at, "want an object")
		return nil, false
	}
	return m, true
}

func unknownKeys(at string, m map[string]json.RawMessage, known []string, put func(Problem), add func(key, format string, a ...any)) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch {
		case slices.Contains(known, k):
		case slices.Contains(hookwireKeys, k):
			add(at+"."+k, "unknown key to PicoClaw: a hookwire extension (keep it in a hookwire hooks.json, given with --hooks beside --config; PicoClaw never reads that file)")
		default:
			put(Problem{Key: at + "." + k, Reason: "unknown key", Word: k, Known: known})
		}
	}
}

// want decodes m[key] into v when present, and reports a value of the
// wrong type; false when it did.
func want[T any](m map[string]json.RawMessage, key string, v *T, add func(key, format string, a ...any)) bool {
	raw, ok := m[key[strings.LastIndexByte(key, '.')+1:]]
	if !ok {
		return true
	}
	if err := json.Unmarshal(raw, v); err != nil {
		add(key, "want %s", typeName[T]())
		return false
	}
	return true
}

func typeName[T any]() string {
	switch any(new(T)).(type) {
	case *bool:
		return "true or false"
	case *int:
		return "an integer"
	case *string:
		return "a string"
	case *[]string:
		return "a list of strings"
	}
	return "an object of strings"
}

// LoadPicoClaw reads PicoClaw's whole configuration file, as it is:
// the file must be one PicoClaw loads and starts with
// (PicoClawFileProblems; its warnings are cfg.Warnings), and only its
// hooks section is read, which means what it means there:
// hooks.enabled is true when absent, as is every hooks.defaults timeout
// left out (0, the default), a relative dir is taken from the working
// directory, observe may say "all" and legacy names, intercept grants its
// stages in pairs (before_llm and after_llm together, before_tool and
// after_tool together). overlay, when not empty, is a
// hooks configuration in hookwire's format that adds hookwire's settings
// (defaults, and timeout_ms, failure_policy and restart of processes named
// in the PicoClaw file).
func LoadPicoClaw(path, overlay string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	var errs, warnings []string
	for _, p := range PicoClawFileProblems(data) {
		if p.Warning {
			warnings = append(warnings, p.Error())
		} else {
			errs = append(errs, p.Error())
		}
	}
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("%s: PicoClaw refuses it:\n%s", path, strings.Join(errs, "\n"))
	}
	var whole map[string]json.RawMessage
	_ = json.Unmarshal(data, &whole) // an object, PicoClawFileProblems said
	cfg, err := picoClawHooks(whole["hooks"])
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	cfg.Warnings = warnings
	if overlay != "" {
		ext, err := LoadConfig(overlay)
		if err != nil {
			return Config{}, err
		}
		if err := cfg.overlay(ext); err != nil {
			return Config{}, fmt.Errorf("%s: %w", overlay, err)
		}
	}
	return cfg, nil
}

// PairedStages is the intercept list as PicoClaw grants it: naming a stage
// grants every stage of its hello mode, so before_llm and after_llm come
// together, as do before_tool and after_tool, and the approval stands alone.
// "" and unknown names grant nothing. The stages come out in their order
// (Stages).
func PairedStages(intercept []string) []string {
	granted := map[protocol.Mode]bool{}
	for _, s := range intercept {
		if st := protocol.Stage(s); st.Valid() {
			granted[st.Mode()] = true
		}
	}
	var out []string
	for _, s := range Stages {
		if granted[protocol.Stage(s).Mode()] {
			out = append(out, s)
		}
	}
	return out
}

// picoClawHooks reads a hooks section PicoClaw accepts into a Config: the
// hooks it would run, and nothing of those it would not look at (all of
// them when hooks are off, and the disabled processes).
func picoClawHooks(hooks json.RawMessage) (Config, error) {
	cfg := Config{Hooks: HooksConfig{Enabled: true}} // PicoClaw's default config enables hooks
	if len(hooks) > 0 {
		if err := json.Unmarshal(hooks, &cfg.Hooks); err != nil {
			return Config{}, err
		}
	}
	if !cfg.Hooks.Enabled {
		cfg.Hooks.Builtins, cfg.Hooks.Processes = nil, nil
	}
	maps.DeleteFunc(cfg.Hooks.Processes, func(_ string, p ProcessConfig) bool { return !p.Enabled })
	// A timeout up to 0 is PicoClaw's default; one past hookwire's longest
	// is taken as the longest.
	for _, ms := range []*int{&cfg.Hooks.Defaults.ObserverTimeoutMS, &cfg.Hooks.Defaults.InterceptorTimeoutMS, &cfg.Hooks.Defaults.ApprovalTimeoutMS} {
		*ms = min(max(*ms, 0), MaxDurationMS)
	}
	wd, err := os.Getwd()
	if err != nil {
		return Config{}, err
	}
	cfg.Dir = wd
	for name, p := range cfg.Hooks.Processes {
		p.Observe = observedByPicoClaw(p.Observe)
		p.Intercept = PairedStages(p.Intercept)
		if p.Dir != "" && !filepath.IsAbs(p.Dir) {
			// PicoClaw takes a relative dir from its working directory.
			if err := checkDir(p.Dir, filepath.Join(wd, p.Dir), "the working directory "+wd); err != nil {
				return Config{}, fmt.Errorf("hooks.processes.%s.dir: %w", name, err)
			}
			p.Dir = filepath.Join(wd, p.Dir)
		}
		cfg.Hooks.Processes[name] = p
	}
	return cfg, cfg.Check()
}

// observedByPicoClaw turns PicoClaw's observe entries into the runtime's:
// "all", "*" and "" are every kind; kinds the runtime never raises (those
// of PicoClaw's other parts) select nothing.
func observedByPicoClaw(list []string) []string {
	var out []string
	for _, s := range list {
		switch {
		case s == "all" || s == "*" || s == "":
			return []string{"*"} // PicoClaw reads no further
		case slices.Contains(protocol.EventKinds, s) || protocol.LegacyKinds[s] != "":
			out = append(out, s)
		}
	}
	return out
}

// overlay adds hookwire's settings of ext to the hooks PicoClaw's file
// configures.
func (c *Config) overlay(ext Config) error {
	// PicoClaw's own timeouts stay unless the overlay sets them; the rest
	// of hooks.defaults is hookwire's.
	d := ext.Hooks.Defaults
	for _, t := range []struct{ mine, theirs *int }{
		{&c.Hooks.Defaults.ObserverTimeoutMS, &d.ObserverTimeoutMS},
		{&c.Hooks.Defaults.InterceptorTimeoutMS, &d.InterceptorTimeoutMS},
		{&c.Hooks.Defaults.ApprovalTimeoutMS, &d.ApprovalTimeoutMS},
	} {
		if *t.theirs == 0 {
			*t.theirs = *t.mine
		}
	}
	c.Hooks.Defaults = d
	for _, name := range slices.Sorted(maps.Keys(ext.Hooks.Processes)) {
		p, ok := c.Hooks.Processes[name]
		if !ok {
			return fmt.Errorf("hooks.processes.%s: no process of that name in PicoClaw's configuration", name)
		}
		x := ext.Hooks.Processes[name]
		if x.Enabled || len(x.Command) > 0 {
			return fmt.Errorf("hooks.processes.%s: only timeout_ms, failure_policy and restart may be set here; the rest is PicoClaw's configuration", name)
		}
		p.TimeoutMS, p.FailurePolicy, p.Restart = x.TimeoutMS, x.FailurePolicy, x.Restart
		c.Hooks.Processes[name] = p
	}
	return c.Check()
}

// checkDir says when dir, found at path, is not a directory, naming where
// it was looked for: a relative dir is read differently by different hosts.
func checkDir(dir, path, from string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("%q: no such directory (looked for %s, from %s)", dir, path, from)
	case !fi.IsDir():
		return fmt.Errorf("%q: not a directory (%s, from %s)", dir, path, from)
	}
	return nil
}
