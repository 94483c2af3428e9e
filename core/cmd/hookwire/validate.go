package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/schema"
)

// The kinds of file validate reads.
const (
	kindHooks    = "hooks"
	kindPicoClaw = "picoclaw"
	kindSettings = "settings"
	kindMessage  = "message"
	kindVector   = "vector"
	kindTrace    = "trace"
)

var validateKinds = []string{kindHooks, kindPicoClaw, kindSettings, kindMessage, kindVector, kindTrace}

var validateCommand = command{
	name: "validate",
	args: "[--kind KIND] [--agent NAME] [--method METHOD] [--host picoclaw] FILE...",
	summary: `Checks each FILE as the program that reads it would, and prints every
mistake in it in one pass, one line each, as FILE:LINE:COL: what is wrong,
LINE:COL being where the member at fault starts (its name), or the item of
a list, or the object that lacks a member. A key, stage,
event, method or agent that names nothing gets the nearest known name
("did you mean"); a file that is not JSON gets one line, where it breaks.
"-" reads stdin. Prints nothing and exits 0 when every FILE is right;
exits 1 when anything is wrong.

What a FILE is, --kind says, or else its content:
  hooks     hookwire's hooks.json (run --hooks): an object with "hooks"
            alone, whose keys are enabled, defaults, builtins, processes
  picoclaw  PicoClaw's config.json (run --config): such a "hooks" section
            beside other sections, which are PicoClaw's, all checked as
            PicoClaw checks them
  settings  an agent's settings file with hooks: "hooks" maps the agent's
            event names (PreToolUse...) to lists; --agent says whose file
            it is, or else the agent that knows most of its events (of
            the agents with a flat "version" file, for such a file)
  message   one JSON-RPC message: an object with "jsonrpc"
  vector    a test vector of schema/testdata: "description" with
            "message", "params", "result" or "def"
  trace     JSON Lines: messages as on the wire, or the records of
            "hookwire run --trace" ("hook" and "dir")
A file that could be several kinds (as {"hooks": {}}) or none says which it
could be: pass --kind.

A response is checked against the method of the request with its id
earlier in the file (per hook in a trace), or against --method.

With --host picoclaw, a hooks file too is checked as PicoClaw loads it
and starts its hooks: each key anywhere in the file that PicoClaw refuses
(its other sections too), and a warning, which does not fail, of what
PicoClaw does to a file it takes (such as rewriting one with no
"version").

Example, a hooks.json with three mistakes:
  $ hookwire validate hooks.json
  hooks.json:7:23: hooks.processes.audit.intercept[0]: unknown stage "befor_tool" (did you mean "before_tool"?)
  hooks.json:8:9: hooks.processes.audit.timeout_ms: want an integer, got string
  hooks.json:9:9: hooks.processes.audit.priorty: unknown key (did you mean "priority"?)`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		kind := fs.String("kind", "", "what each FILE is: "+strings.Join(validateKinds, ", ")+" (default: told by its content)")
		agent := fs.String("agent", "", "with a settings file, the `agent` whose file it is: "+agentNames())
		method := fs.String("method", "", "`method` a response answers, when the file does not show its request")
		hostName := fs.String("host", "reference", "with picoclaw, check hooks files as PicoClaw loads them")
		return func(files []string, e env) int {
			h, err := host.Parse(*hostName)
			if err != nil {
				return e.fail(exitUsage, "validate", err)
			}
			if *kind != "" && !slices.Contains(validateKinds, *kind) {
				return e.fail(exitUsage, "validate", fmt.Errorf("unknown kind %q%s (known: %s)", *kind, cli.DidYouMean(*kind, validateKinds), strings.Join(validateKinds, ", ")))
			}
			if *agent != "" && install.Agents[*agent] == nil {
				return e.fail(exitUsage, "validate", fmt.Errorf("unknown agent %q%s (known: %s)", *agent, cli.DidYouMean(*agent, slices.Sorted(maps.Keys(install.Agents))), agentNames()))
			}
			if len(files) == 0 {
				return e.fail(exitUsage, "validate", errors.New("need at least one file (see hookwire validate --help)"))
			}
			v, err := schema.NewValidator()
			if err != nil {
				return e.fail(exitFail, "validate", err)
			}
			c := &checker{v: v, kind: *kind, method: *method, host: h}
			if *agent != "" {
				c.agent = install.Agents[*agent]
				if c.agent != nil && !c.agent.Layout.Entries() {
					what := "programs, one per event"
					if c.agent.Layout == install.Plugin {
						what = "hookwire's plugin of its plugin API"
					}
					return e.fail(exitUsage, "validate", fmt.Errorf("%s has no settings file: its hooks are %s (check them with hookwire doctor %s)", *agent, what, *agent))
				}
			}
			code := exitOK
			for _, f := range files {
				data, name, err := readInput(f, e)
				if err != nil {
					return e.fail(exitFail, "validate", err)
				}
				for _, f := range c.check(data) {
					fmt.Fprintf(e.stdout, "%s%s: %s\n", name, f.where(data), f.msg)
					if !strings.HasPrefix(f.msg, warningPrefix) {
						code = exitFail
					}
				}
			}
			return code
		}
	},
}

func readInput(path string, e env) (data []byte, name string, err error) {
	if path == "-" {
		data, err = io.ReadAll(e.stdin)
		return data, "stdin", err
	}
	data, err = os.ReadFile(path)
	return data, path, err
}

// fault is one mistake in a file, at a byte of it.
type fault struct {
	// off is the offset of the member or value at fault; -1 is the file
	// as a whole.
	off int
	msg string
}

// warningPrefix starts the message of a fault that is not one: the file
// is right, but what reads it does something its author should know of.
// It does not fail validate.
const warningPrefix = "warning: "

// where is ":LINE:COL" of the fault in data (a column counts bytes, from
// 1), or "" for the file as a whole.
func (f fault) where(data []byte) string {
	if f.off < 0 {
		return ""
	}
	before := data[:min(f.off, len(data))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// checker checks files as the flags say.
type checker struct {
	v      *schema.Validator
	kind   string         // "": told by the content
	agent  *install.Agent // nil: told by the content
	method string
	host   *host.Host
}

// check gives every mistake in data, and every warning, in the order of
// the file.
func (c *checker) check(data []byte) []fault {
	if len(bytes.TrimSpace(data)) == 0 {
		return []fault{{-1, "the file is empty"}}
	}
	root, parsed := parseTree(data)
	kind := c.kind
	if kind == "" {
		switch {
		case !parsed && jsonLines(data):
			kind = kindTrace
		case !parsed:
			return []fault{syntaxFault(data)}
		default:
			var could []string
			kind, could = detect(root)
			if _, obj := root.Value.(*hujson.Object); obj && c.host.CheckConfig != nil && (kind == "" || slices.Contains(could, kindPicoClaw)) {
				kind, could = kindPicoClaw, nil // under --host picoclaw, an object is its config.json
			}
			if kind == "" && could == nil {
				return []fault{{-1, "not a kind of file told by its content (" + strings.Join(validateKinds, ", ") + "): say which it is with --kind"}}
			} else if kind == "" {
				return []fault{{-1, "could be " + orList(could) + ": say which with --kind"}}
			}
		}
	}
	if kind == kindTrace {
		return c.trace(data, root, parsed)
	}
	if !parsed {
		return []fault{syntaxFault(data)}
	}
	var faults []fault
	switch kind {
	case kindHooks, kindPicoClaw:
		faults = c.hooks(data, root, kind)
	case kindSettings:
		faults = c.settings(data, root)
	case kindMessage:
		if !root.IsStandard() {
			return []fault{syntaxFault(data)}
		}
		faults = c.message(data, root)
	case kindVector:
		faults = c.vector(data, root)
	}
	slices.SortStableFunc(faults, func(a, b fault) int { return a.off - b.off })
	return faults
}

// parseTree reads data as JSON with its positions, comments and trailing
// commas allowed (kinds that read plain JSON refuse them later, with
// their positions). The parser recurses once per level: data with more
// opening brackets than encoding/json's limit of nesting is left to
// encoding/json, which needs no stack for it, to refuse.
func parseTree(data []byte) (*hujson.Value, bool) {
	if bytes.Count(data, []byte("{"))+bytes.Count(data, []byte("[")) > 10000 && !json.Valid(data) {
		return nil, false
	}
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, false
	}
	return &root, true
}

// jsonLines reports whether data is JSON Lines rather than one value that
// does not parse: its first line is a JSON value of its own.
func jsonLines(data []byte) bool {
	for line := range bytes.Lines(data) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return json.Valid(line)
		}
	}
	return false
}

// syntaxFault is the first place data stops being JSON, as one fault.
func syntaxFault(data []byte) fault {
	var x any
	err := json.Unmarshal(data, &x)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fault{0, "not JSON: " + fmt.Sprint(err)}
	}
	off := int(se.Offset) - 1 // the offset counts the byte at fault
	if off >= len(data) || off < 0 || se.Error() == "unexpected end of JSON input" {
		end := len(bytes.TrimRight(data, " \t\r\n")) // after its last character, not on a line of its own
		return fault{end, "not JSON: the file ends before a quote, bracket or brace closes what it opened"}
	}
	switch c := data[off]; {
	case c == '}' || c == ']':
		prev := len(bytes.TrimRight(data[:off], " \t\r\n")) - 1
		if prev >= 0 && data[prev] == ',' {
			return fault{prev, "not JSON: a comma after the last item, which JSON does not allow: take it out"}
		}
	case c == '\n' && strings.Contains(se.Error(), "string literal"):
		return fault{stringStart(data, off), `not JSON: the string is not closed on its line: a " is missing`}
	case c == '/':
		return fault{off, "not JSON: a comment, which this file cannot have: it is read as plain JSON"}
	}
	return fault{off, "not JSON: " + se.Error()}
}

// stringStart is where the string that a line break at off cuts short
// opens: a string cannot hold a line break, so it opened on that line.
func stringStart(data []byte, off int) int {
	open := off
	inString := false
	for i := bytes.LastIndexByte(data[:off], '\n') + 1; i < off; i++ {
		switch {
		case inString && data[i] == '\\':
			i++
		case data[i] == '"':
			if inString = !inString; inString {
				open = i
			}
		}
	}
	return open
}

func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// hooksKeys are the keys of a hooks section, in hookwire's format and
// PicoClaw's.
var hooksKeys = []string{"enabled", "defaults", "builtins", "processes"}

// detect tells the kind of a file by its content (as --help says), or
// gives the kinds it could be; neither when it looks like none.
func detect(root *hujson.Value) (kind string, could []string) {
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return kindMessage, nil // which says it is not an object
	}
	has := func(names ...string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return member(obj, n) != nil })
	}
	switch {
	case has("jsonrpc"):
		return kindMessage, nil
	case has("description") && has("message", "params", "result", "def"):
		return kindVector, nil
	case has("hook") && has("dir"):
		return kindTrace, nil
	case has("hooks"):
		return detectHooks(obj)
	case has("method", "id", "result", "error"):
		return kindMessage, nil
	}
	return "", nil
}

// detectHooks tells a hooks configuration from an agent's settings by the
// keys of its hooks section: hookwire's and PicoClaw's (or near them), or
// events of an agent (or near them, or lists).
func detectHooks(obj *hujson.Object) (string, []string) {
	config := kindHooks // "hooks" alone, or with PicoClaw's "version"
	for _, m := range obj.Members {
		if n := strValue(&m.Name); n != "hooks" && n != "version" {
			config = kindPicoClaw
		}
	}
	section, ok := member(obj, "hooks").Value.(*hujson.Object)
	if _, list := member(obj, "hooks").Value.(*hujson.Array); list {
		return "", nil // such as a skill's hooks file, which skill-hooks --check reads
	} else if !ok {
		return config, nil
	}
	var ours, events bool
	for _, m := range section.Members {
		name := strValue(&m.Name)
		_, list := m.Value.Value.(*hujson.Array)
		switch {
		case slices.Contains(hooksKeys, name) || cli.DidYouMean(name, hooksKeys) != "":
			ours = true
		case list || slices.Contains(allEvents(), name) || cli.DidYouMean(name, allEvents()) != "":
			events = true
		}
	}
	switch {
	case ours && !events:
		return config, nil
	case events && !ours:
		return kindSettings, nil
	}
	return "", []string{config, kindSettings}
}

// member is the value of the object's member name: the last, when the name
// repeats, as encoding/json reads it; nil when there is none.
func member(obj *hujson.Object, name string) *hujson.Value {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if strValue(&obj.Members[i].Name) == name {
			return &obj.Members[i].Value
		}
	}
	return nil
}

// nameOffset is where the object's member name starts (the last, as
// member finds it); asked only of a member the object has.
func nameOffset(obj *hujson.Object, name string) int {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if strValue(&obj.Members[i].Name) == name {
			return obj.Members[i].Name.StartOffset
		}
	}
	return 0
}

// strValue is a string's value, or "" for any other value.
func strValue(v *hujson.Value) string {
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '"' {
		return lit.String()
	}
	return ""
}

// pointerOffset is where the value a JSON Pointer names starts in the
// file: a member's name, an array's element. A pointer that goes past what
// is there (a member that is missing) stops at the value that lacks it.
func pointerOffset(root *hujson.Value, ptr string) int {
	v, off := root, root.StartOffset
	if ptr == "" {
		return off
	}
	for tok := range strings.SplitSeq(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		name, next := step(v, tok)
		if next == nil {
			return v.StartOffset
		}
		v, off = next, name
	}
	return off
}

// step goes from v to its member or element tok; name is the offset of the
// member's name (or the element's).
func step(v *hujson.Value, tok string) (name int, next *hujson.Value) {
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := len(c.Members) - 1; i >= 0; i-- {
			if m := &c.Members[i]; strValue(&m.Name) == tok {
				return m.Name.StartOffset, &m.Value
			}
		}
	case *hujson.Array:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c.Elements) {
			return c.Elements[i].StartOffset, &c.Elements[i]
		}
	}
	return 0, nil
}

func jsonValid(b []byte) bool { return json.Valid(b) }

func quote(b []byte) string {
	q, _ := json.Marshal(string(b))
	return string(q)
}
