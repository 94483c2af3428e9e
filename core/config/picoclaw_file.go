package config

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// PicoClaw's loader (pkg/config/config.go, LoadConfig) reads the version
// first: 3 is read as it is, 0 (or none) to 2 are migrated and the file
// is rewritten in place, anything else is refused. It then checks every
// key of the whole file against the Go types of its configuration, and
// decodes the file, which refuses a value of the wrong type. The keys of
// those types, and the event names its hooks may observe, are data read
// from its code (picoclaw_keys.json), so that a newer PicoClaw is a new
// file rather than new code.

//go:embed picoclaw_keys.json
var picoClawFactsJSON []byte

type picoClawFacts struct {
	Snapshot       string                       `json:"snapshot"`
	CurrentVersion int                          `json:"current_version"`
	Root           string                       `json:"root"`
	Events         []string                     `json:"events"`
	LegacyEvents   map[string]string            `json:"legacy_events"`
	Types          map[string]map[string]string `json:"types"`
}

var picoClaw = func() picoClawFacts {
	var f picoClawFacts
	if err := json.Unmarshal(picoClawFactsJSON, &f); err != nil || f.Types[f.Root] == nil {
		panic(fmt.Sprintf("config: picoclaw_keys.json: %v", err))
	}
	addLegacyTypes(f.Types, f.Root)
	return f
}()

// legacyRoot is the type a file older than the current version is checked
// against before it is migrated (pkg/config/migration.go,
// legacyDiagnosticConfig): the current sections but events, evolution and
// build_info, sections the migration turns into others (channels,
// bindings, providers: not checked), model_list's entries not checked,
// and agents.defaults.model, which it renames.
const legacyRoot = "legacy Config"

func addLegacyTypes(types map[string]map[string]string, root string) {
	cur := types[root]
	legacy := map[string]string{"channels": "*", "bindings": "*", "providers": "*", "model_list": "[*"}
	for _, k := range []string{"version", "isolation", "agents", "session", "channel_list", "gateway", "hooks", "tools", "heartbeat", "devices", "voice"} {
		legacy[k] = cur[k]
	}
	agents := maps.Clone(types[cur["agents"]])
	defaults := maps.Clone(types[agents["defaults"]])
	defaults["model"] = "s"
	agents["defaults"] = "legacy AgentDefaults"
	legacy["agents"] = "legacy Agents"
	types[legacyRoot], types["legacy Agents"], types["legacy AgentDefaults"] = legacy, agents, defaults
}

// PicoClawVersion is the configuration version PicoClaw reads without
// migrating (and rewriting) the file.
var PicoClawVersion = picoClaw.CurrentVersion

// PicoClawEvents are the names a PicoClaw observe list may give, sorted:
// its event kinds and their older names.
func PicoClawEvents() []string {
	names := slices.Concat(picoClaw.Events, slices.Collect(maps.Keys(picoClaw.LegacyEvents)))
	slices.Sort(names)
	return names
}

// PicoClawFileProblems lists, key by key, what PicoClaw refuses in its
// whole configuration file, data, and warns (Problem.Warning) of what it
// does to a file it accepts that the user would not expect. None means
// PicoClaw loads the file as it is.
func PicoClawFileProblems(data []byte) []Problem {
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil || whole == nil {
		return []Problem{{Reason: "want a JSON object"}}
	}
	var probs []Problem
	add := func(key, format string, a ...any) {
		probs = append(probs, Problem{Key: key, Reason: fmt.Sprintf(format, a...)})
	}
	put := func(p Problem) { probs = append(probs, p) }
	var version int
	if raw, ok := whole["version"]; ok && json.Unmarshal(raw, &version) != nil {
		add("version", "want an integer (%d)", picoClaw.CurrentVersion)
	}
	root := picoClaw.Root
	switch {
	case len(data) <= 10:
		put(Problem{Warning: true, Reason: "PicoClaw takes a file of 10 bytes or less for no file: it runs its default configuration"})
	case version < 0 || version > picoClaw.CurrentVersion:
		add("version", "unsupported config version %d (PicoClaw reads 0 to %d)", version, picoClaw.CurrentVersion)
	case version < picoClaw.CurrentVersion:
		key, what := "version", fmt.Sprintf("version %d", version)
		if _, ok := whole["version"]; !ok {
			key, what = "", `no "version"`
		}
		put(Problem{Key: key, Warning: true, Reason: fmt.Sprintf(
			`%s: PicoClaw migrates the file and rewrites it in place, as its whole configuration with every default filled in, `+
				`keeping the old one as FILE.YYYYMMDD.bak and writing .security.yml in its folder; add "version": %d to keep the file as it is`,
			what, picoClaw.CurrentVersion)})
		root = legacyRoot
	}
	known := slices.Sorted(maps.Keys(picoClaw.Types[root]))
	for _, k := range slices.Sorted(maps.Keys(whole)) {
		switch typ, ok := picoClaw.Types[root][k]; {
		case !ok:
			put(unknownKey(k, k, known))
		case k == "hooks":
			probs = append(probs, PicoClawProblems(whole[k])...)
		case k != "version":
			checkShape(k, whole[k], typ, put, add)
		}
	}
	return probs
}

// unknownKey is the problem of a key that names nothing where it is:
// the keys it could be are listed when they are few.
func unknownKey(at, k string, known []string) Problem {
	p := Problem{Key: at, Reason: "unknown key", Word: k}
	if len(known) <= 12 {
		p.Known = known
	} else {
		p.Near = known
	}
	return p
}

// checkShape checks raw, at key at, against a type of picoclaw_keys.json:
// its keys, and the kind of value (a type that decodes itself may take
// other shapes, so only its keys are checked). null is any type's zero.
func checkShape(at string, raw json.RawMessage, typ string, put func(Problem), add func(key, format string, a ...any)) {
	custom := strings.HasPrefix(typ, "~")
	typ = strings.TrimPrefix(typ, "~")
	if typ == "*" || string(raw) == "null" {
		return
	}
	want := func(v any, what string) bool {
		if err := json.Unmarshal(raw, v); err != nil {
			if !custom {
				add(at, "want %s", what)
			}
			return false
		}
		return true
	}
	switch typ {
	case "s":
		want(new(string), "a string")
	case "b":
		want(new(bool), "true or false")
	case "i":
		want(new(int64), "an integer")
	case "f":
		want(new(float64), "a number")
	default:
		switch typ[0] {
		case '[':
			var list []json.RawMessage
			if want(&list, "a list") {
				for i, v := range list {
					checkShape(fmt.Sprintf("%s[%d]", at, i), v, typ[1:], put, add)
				}
			}
		case '{':
			var m map[string]json.RawMessage
			if want(&m, "an object") {
				for _, k := range slices.Sorted(maps.Keys(m)) {
					checkShape(at+"."+k, m[k], typ[1:], put, add)
				}
			}
		default:
			var m map[string]json.RawMessage
			custom = custom || strings.HasSuffix(typ, "~")
			if !want(&m, "an object") {
				return
			}
			fields := picoClaw.Types[typ]
			known := slices.Sorted(maps.Keys(fields))
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if ft, ok := fields[k]; ok {
					checkShape(at+"."+k, m[k], ft, put, add)
				} else {
					put(unknownKey(at+"."+k, k, known))
				}
			}
		}
	}
}
