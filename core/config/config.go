// Package config reads hooks configurations: hookwire's own format
// (hooks.json, LoadConfig) and PicoClaw's config.json (LoadPicoClaw), each
// with its own meaning, into one Config that the runtime runs.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/internal/strict"
	"github.com/hookwire/hookwire/core/protocol"
)

// Config is a hooks configuration file: the hooks block of PicoClaw's
// configuration, as the source documents describe it, plus a few optional
// keys of our own (marked "extension" below).
//
//	{"hooks": {
//	  "enabled": true,
//	  "defaults": {"observer_timeout_ms": 500, "interceptor_timeout_ms": 5000, "approval_timeout_ms": 60000},
//	  "processes": {
//	    "weather_plugin": {
//	      "enabled": true, "priority": 100, "transport": "stdio",
//	      "command": ["python3", "weather_plugin.py"],
//	      "intercept": ["before_llm", "before_tool"]
//	    }
//	  }
//	}}
type Config struct {
	// Version is PicoClaw's configuration version, which hookwire does not
	// read: a hooks file that PicoClaw may load too says "version": 3
	// (PicoClawVersion), or PicoClaw migrates the file and rewrites it.
	Version int `json:"version,omitempty"`

	Hooks HooksConfig `json:"hooks"`

	// Warnings are what PicoClaw would do with its config.json that its
	// author should know of, though it loads it (see LoadPicoClaw).
	Warnings []string `json:"-"`

	// Dir is the configuration file's folder (PicoClaw's: the working
	// directory): relative paths in built-ins' configs start there.
	Dir string `json:"-"`
}

// HooksConfig is the hooks block.
type HooksConfig struct {
	// Enabled must be true for any configured hook to run. In a file it
	// is true when absent, as in PicoClaw.
	Enabled bool `json:"enabled"`
	// Defaults are the deadlines of hook calls.
	Defaults DefaultsConfig `json:"defaults"`
	// Builtins enables in-process hooks that the embedding program provides
	// by name (Options.Builtins).
	Builtins map[string]BuiltinConfig `json:"builtins"`
	// Processes are the hook processes, by name.
	Processes map[string]ProcessConfig `json:"processes"`
}

// DefaultsConfig holds the deadlines of hook calls, in milliseconds (zero
// means the documented default), and the default approval.
type DefaultsConfig struct {
	// ObserverTimeoutMS bounds the delivery of one event (default 500).
	ObserverTimeoutMS int `json:"observer_timeout_ms"`
	// InterceptorTimeoutMS bounds one interceptor call (default 5000).
	InterceptorTimeoutMS int `json:"interceptor_timeout_ms"`
	// ApprovalTimeoutMS bounds one call to an approver (default 60000).
	ApprovalTimeoutMS int `json:"approval_timeout_ms"`
	// Approval decides a tool call when every approver abstained: "deny"
	// (the default, also when empty) or "allow". Extension.
	Approval string `json:"approval"`
	// Respond says which tools a before_tool hook may answer with respond:
	// "any" (the default, also when empty, as in PicoClaw), or
	// "own_tools": only the tools the hook itself added to the LLM's
	// request in before_llm; a respond for another tool is a failure of
	// the hook, under its before_tool policy. Extension.
	Respond string `json:"respond"`
	// ApproveRespond, when true, sends a call that a hook answered with
	// respond through the approvers all the same: denied, the hook's answer
	// is dropped and the call is not approved. PicoClaw skips approval.
	// Extension.
	ApproveRespond bool `json:"approve_respond"`
}

// The values of hooks.defaults.respond.
const (
	RespondAny      = "any"
	RespondOwnTools = "own_tools"
)

// The values of hooks.defaults.approval.
const (
	ApprovalDeny  = "deny"
	ApprovalAllow = "allow"
)

// BuiltinConfig enables a built-in, in-process hook.
type BuiltinConfig struct {
	Enabled  bool            `json:"enabled"`
	Priority int             `json:"priority"`
	Config   json.RawMessage `json:"config"`
}

// ProcessConfig describes one hook process.
type ProcessConfig struct {
	// Enabled must be true for the hook to run.
	Enabled bool `json:"enabled"`
	// Priority orders the hook among process hooks: lower runs first, ties by name.
	Priority int `json:"priority"`
	// Transport is "stdio", the only one there is; empty means stdio.
	Transport string `json:"transport"`
	// Command is the program and its arguments, run with no shell.
	Command []string `json:"command"`
	// Dir is the working directory. A relative dir is taken from the folder
	// of the configuration file; none means the runtime's working directory.
	Dir string `json:"dir"`
	// Env holds variables set on top of the runtime's environment.
	Env map[string]string `json:"env"`
	// EnvPassthrough, when set, lists the runtime's variables the hook
	// gets, by name or glob ("LC_*"); absent passes every one, as PicoClaw
	// does. Extension.
	EnvPassthrough []string `json:"env_passthrough"`
	// EnvClear passes the hook none of the runtime's variables but those
	// EnvPassthrough names: it gets env and nothing else. Extension.
	EnvClear bool `json:"env_clear"`
	// Observe lists the events the hook receives: runtime kinds such as
	// "agent.tool.exec_end", legacy names such as "tool_exec_end", globs
	// such as "agent.tool.*", or "*" for all.
	Observe []string `json:"observe"`
	// ObserveOverflow says what happens to an event that finds the hook's
	// queue full: "drop" (the default) drops it and the agent goes on;
	// "wait" makes the agent wait for room, for at most the observer
	// deadline, so that an audit hook loses no event. Extension.
	ObserveOverflow Overflow `json:"observe_overflow"`
	// Intercept lists the stages the hook intercepts, by their names (see
	// Stages).
	Intercept []string `json:"intercept"`

	// TimeoutMS, when set, replaces the default deadline of every call to
	// this hook. Extension.
	TimeoutMS int `json:"timeout_ms"`
	// FailurePolicy sets, per stage, whether a failed call lets the chain
	// go on ("open") or stops it ("closed"). Interceptor stages default to
	// open, the approval to closed. Extension.
	FailurePolicy map[string]string `json:"failure_policy"`
	// Restart says how the hook is restarted when it crashes. Extension.
	Restart RestartConfig `json:"restart"`
}

// RestartConfig is the restart policy of a hook process; see RestartPolicy.
type RestartConfig struct {
	// Enabled is true unless set to false.
	Enabled *bool `json:"enabled"`
	// MaxRestarts is how many restarts in a row are tried (default 5).
	MaxRestarts int `json:"max_restarts"`
	// BackoffMS is the wait before the first restart (default 100).
	BackoffMS int `json:"backoff_ms"`
	// MaxBackoffMS caps the doubling wait (default 5000).
	MaxBackoffMS int `json:"max_backoff_ms"`
}

// LoadConfig reads a hooks configuration file. Relative dirs are resolved
// against the file's folder. Errors name the file and the key at fault.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	base := filepath.Dir(path)
	cfg.Dir = base
	for name, p := range cfg.Hooks.Processes {
		if p.Dir != "" && !filepath.IsAbs(p.Dir) {
			p.Dir = filepath.Join(base, p.Dir)
			cfg.Hooks.Processes[name] = p
		}
	}
	return cfg, nil
}

// ParseConfig decodes and checks a hooks configuration. An unknown key or a
// bad value is an error that names it, such as
// `hooks.processes.audit.intercept[1]: unknown stage "befor_tool"`.
func ParseConfig(data []byte) (Config, error) {
	cfg := Config{Hooks: HooksConfig{Enabled: true}} // absent means enabled, as in PicoClaw
	if err := strict.Decode(data, &cfg); err != nil {
		return Config{}, err
	}
	return cfg, cfg.Check()
}

// HooksProblems lists every key of a hooks configuration that ParseConfig
// would refuse, each once, in the order of the file's keys (sorted within
// an object): what a person fixes in one pass, where ParseConfig stops at
// the first. Data that is not JSON is one problem, at no key.
func HooksProblems(data []byte) []Problem {
	cfg := Config{Hooks: HooksConfig{Enabled: true}}
	var probs []Problem
	for _, err := range strict.DecodeAll(data, &cfg) {
		var se *strict.Error
		if !errors.As(err, &se) {
			return []Problem{{Reason: err.Error()}}
		}
		probs = append(probs, Problem{Key: se.Path, Reason: se.Reason, Word: se.Unknown, Known: se.Known})
	}
	// A value that did not decode was left as it was: what Check says of
	// it, or of what holds it, is the same fault again.
	for _, p := range cfg.Problems() {
		if !slices.ContainsFunc(probs, func(q Problem) bool { return within(p.Key, q.Key) || within(q.Key, p.Key) }) {
			probs = append(probs, p)
		}
	}
	return probs
}

// within reports whether key is inner or a key or element under it.
func within(key, inner string) bool {
	rest, ok := strings.CutPrefix(key, inner)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// Check says what is wrong with a configuration, naming the key; nil when
// nothing is. It says the first of Problems.
func (c Config) Check() error {
	if probs := c.Problems(); len(probs) > 0 {
		return probs[0]
	}
	return nil
}

// Problems lists everything wrong with a configuration, key by key.
func (c Config) Problems() []Problem {
	var probs []Problem
	add := func(p Problem) { probs = append(probs, p) }
	h := c.Hooks
	for _, d := range []struct {
		key string
		ms  int
	}{
		{"observer_timeout_ms", h.Defaults.ObserverTimeoutMS},
		{"interceptor_timeout_ms", h.Defaults.InterceptorTimeoutMS},
		{"approval_timeout_ms", h.Defaults.ApprovalTimeoutMS},
	} {
		checkMSInto("hooks.defaults."+d.key, d.ms, add)
	}
	if a := h.Defaults.Approval; a != "" && a != ApprovalDeny && a != ApprovalAllow {
		add(Problem{Key: "hooks.defaults.approval", Reason: fmt.Sprintf(`%q is not "deny" or "allow"`, a)})
	}
	if v := h.Defaults.Respond; v != "" && v != RespondAny && v != RespondOwnTools {
		add(Problem{Key: "hooks.defaults.respond", Reason: fmt.Sprintf(`%q is not "any" or "own_tools"`, v)})
	}
	for _, name := range slices.Sorted(maps.Keys(h.Processes)) {
		h.Processes[name].check("hooks.processes."+name, add)
	}
	return probs
}

func (p ProcessConfig) check(at string, add func(Problem)) {
	if p.Transport != "" && p.Transport != "stdio" {
		add(Problem{Key: at + ".transport", Reason: fmt.Sprintf(`%q is not supported (only "stdio")`, p.Transport)})
	}
	if p.Enabled && len(p.Command) == 0 {
		add(Problem{Key: at + ".command", Reason: "required: the program to run and its arguments"})
	}
	if len(p.Command) > 0 && p.Command[0] == "" {
		add(Problem{Key: at + ".command[0]", Reason: "must name a program"})
	}
	for i, s := range p.Intercept {
		if !ValidStage(s) {
			add(Problem{Key: fmt.Sprintf("%s.intercept[%d]", at, i), Reason: fmt.Sprintf("unknown stage %q", s), Word: s, Known: Stages})
		}
	}
	for i, s := range p.Observe {
		if _, err := CompilePattern(s); err != nil {
			add(Problem{Key: fmt.Sprintf("%s.observe[%d]", at, i), Reason: err.Error(), Word: s, Near: EventNames()})
		}
	}
	for i, glob := range p.EnvPassthrough {
		if _, err := path.Match(glob, ""); err != nil || glob == "" {
			add(Problem{Key: fmt.Sprintf("%s.env_passthrough[%d]", at, i), Reason: fmt.Sprintf("%q is not a variable name or glob", glob)})
		}
	}
	checkMSInto(at+".timeout_ms", p.TimeoutMS, add)
	if !p.ObserveOverflow.Valid() {
		add(Problem{Key: at + ".observe_overflow", Reason: fmt.Sprintf(`%q is not "drop" or "wait"`, p.ObserveOverflow)})
	}
	for _, s := range slices.Sorted(maps.Keys(p.FailurePolicy)) {
		if !ValidStage(s) {
			add(Problem{Key: at + ".failure_policy." + s, Reason: "unknown stage", Word: s, Known: Stages})
			continue
		}
		if v := Policy(p.FailurePolicy[s]); v != FailOpen && v != FailClosed {
			add(Problem{Key: at + ".failure_policy." + s, Reason: fmt.Sprintf(`%q is not "open" or "closed"`, v)})
		}
	}
	if p.Restart.MaxRestarts < 0 {
		add(Problem{Key: at + ".restart.max_restarts", Reason: "must not be negative"})
	}
	checkMSInto(at+".restart.backoff_ms", p.Restart.BackoffMS, add)
	checkMSInto(at+".restart.max_backoff_ms", p.Restart.MaxBackoffMS, add)
}

// EventNames are the names an observe list may give an event by: the
// runtime's kinds and the legacy names, sorted.
func EventNames() []string {
	names := slices.Clone(protocol.EventKinds)
	for legacy := range protocol.LegacyKinds {
		names = append(names, legacy)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// MaxDurationMS is the longest duration a configuration may set, in
// milliseconds: one day. A bigger number is refused rather than taken for
// "never": a hook that never answers must still be given up on, and a
// number of milliseconds past 2^63 nanoseconds would turn negative.
const MaxDurationMS = 24 * 60 * 60 * 1000

// checkMS says what is wrong with a duration in milliseconds, or "": 0
// means the default.
func checkMS(v int) string {
	switch {
	case v < 0:
		return "must not be negative (0 or absent means the default)"
	case v > MaxDurationMS:
		return fmt.Sprintf("%d is more than the maximum, %d (one day)", v, MaxDurationMS)
	}
	return ""
}

func checkMSInto(key string, v int, add func(Problem)) {
	if why := checkMS(v); why != "" {
		add(Problem{Key: key, Reason: why})
	}
}

// Stages are the stages an intercept list may name, in the order an agent
// meets them: the methods a hook answers under a mode, without "hook."
// (a test holds them to the method table).
var Stages = func() []string {
	var out []string
	for _, s := range protocol.Stages {
		out = append(out, string(s))
	}
	return out
}()

// ValidStage reports whether s names a stage.
func ValidStage(s string) bool { return slices.Contains(Stages, s) }

func stageList() string { return strings.Join(Stages, ", ") }

// Policy says what a failed hook call means for its stage: a crash, a
// timeout, an error reply, a reply that cannot be read or an action the
// stage does not allow.
type Policy string

const (
	// FailOpen skips the failed hook: the chain goes on as if it had
	// answered continue. The default for every interceptor stage.
	FailOpen Policy = "open"
	// FailClosed stops the chain: the approval and before_tool deny the
	// tool, the other stages abort the turn. The default for approvals.
	FailClosed Policy = "closed"
)

// Overflow says what happens to an event that finds its observer's queue
// full.
type Overflow string

const (
	// OverflowDrop drops the event, counts it and goes on: the agent never
	// waits for an observer. The default.
	OverflowDrop Overflow = "drop"
	// OverflowWait makes the agent wait for room in the queue, for at most
	// the observer's deadline, before it drops the event: for observers
	// that must not lose events, such as an audit log.
	OverflowWait Overflow = "wait"
)

// Valid reports whether o is an overflow a configuration may name.
func (o Overflow) Valid() bool { return o == "" || o == OverflowDrop || o == OverflowWait }

// Pattern matches event kinds.
type Pattern func(kind string) bool

// CompilePattern reads one entry of an observe list: "*", a runtime kind, a
// legacy name (normalized to its runtime kind), or a glob.
func CompilePattern(s string) (Pattern, error) {
	switch {
	case s == "*":
		return func(string) bool { return true }, nil
	case slices.Contains(protocol.EventKinds, s):
		return func(k string) bool { return k == s }, nil
	case protocol.LegacyKinds[s] != "":
		kind := protocol.LegacyKinds[s]
		return func(k string) bool { return k == kind }, nil
	case strings.ContainsAny(s, "*?["):
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("bad glob %q: %w", s, err)
		}
		return func(k string) bool { ok, _ := path.Match(s, k); return ok }, nil
	}
	return nil, fmt.Errorf("unknown event kind %q (a runtime kind such as %q, a legacy name such as %q, a glob, or \"*\")",
		s, protocol.KindToolExecEnd, "tool_exec_end")
}

// CompilePatterns is one Pattern for a whole observe list: a kind matches
// when an entry does; an empty list matches every kind.
func CompilePatterns(list []string) (Pattern, error) {
	if len(list) == 0 {
		return func(string) bool { return true }, nil
	}
	ps := make([]Pattern, len(list))
	for i, s := range list {
		p, err := CompilePattern(s)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	return func(k string) bool {
		for _, p := range ps {
			if p(k) {
				return true
			}
		}
		return false
	}, nil
}
