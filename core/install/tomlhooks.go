package install

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// An agent whose hooks are an array of tables in a TOML file
// (agents.TOMLHooks) gets hookwire's entries as a block of their own,
// between two comment lines: install appends the block at the end of the
// file, or writes it again where it is; uninstall takes entries out of it,
// and the block with its comments once it is empty. Every byte of the file
// outside the block is the user's and stays as it was, comments and own
// hooks included: no TOML encoder rewrites the file.
const (
	tomlBlockBegin = "# >>> hookwire: hooks that hookwire install wrote; hookwire uninstall takes them out (keep your own out of this block) >>>"
	tomlBlockEnd   = "# <<< hookwire <<<"
)

// The marker lines are known by these beginnings, so that a block a later
// version words otherwise is still found.
const (
	tomlBeginPrefix = "# >>> hookwire"
	tomlEndPrefix   = "# <<< hookwire"
)

// tomlBlock is where hookwire's block is in a file: from the first byte of
// its first comment line to the byte after its last line's end.
type tomlBlock struct {
	start, end int
	found      bool
}

// findTOMLBlock finds hookwire's block in data, which parses as TOML: its
// comment lines are comments of the file, not lines of a multi-line
// string. A comment line without its other, or a second block, is an
// error naming its line.
func findTOMLBlock(data []byte) (tomlBlock, error) {
	var b tomlBlock
	begun := false
	p := unstable.Parser{KeepComments: true}
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.Comment {
			continue
		}
		text := strings.TrimRight(string(e.Data), " \t")
		offset := int(e.Raw.Offset)
		switch {
		case strings.HasPrefix(text, tomlBeginPrefix):
			if begun || b.found {
				return b, fmt.Errorf("line %d: a second block of hookwire's hooks: take one of them out", lineOf(data, offset))
			}
			begun, b.start = true, lineStart(data, offset)
		case strings.HasPrefix(text, tomlEndPrefix):
			if !begun {
				return b, fmt.Errorf("line %d: the end of a block of hookwire's hooks that does not begin (no %q line before it): take the line out", lineOf(data, offset), tomlBeginPrefix)
			}
			begun, b.found, b.end = false, true, lineEnd(data, offset)
		}
	}
	if err := p.Error(); err != nil {
		return b, err
	}
	if begun {
		return b, fmt.Errorf("line %d: a block of hookwire's hooks begins here and does not end (no %q line): put that line back, or take the block out", lineOf(data, b.start), tomlEndPrefix)
	}
	return b, nil
}

// lineStart is the offset of the first byte of offset's line.
func lineStart(data []byte, offset int) int { return bytes.LastIndexByte(data[:offset], '\n') + 1 }

// lineEnd is the offset after offset's line and its line end.
func lineEnd(data []byte, offset int) int {
	if i := bytes.IndexByte(data[offset:], '\n'); i >= 0 {
		return offset + i + 1
	}
	return len(data)
}

// tomlTables are the entries of the agent's array of tables in data, each
// as it decodes; nil where data has no such array. An array of another
// shape is an error: hookwire would not know where its entries go.
func (a *Agent) tomlTables(data []byte) ([]map[string]any, error) {
	v, err := decodeTOML(data)
	if err != nil {
		return nil, err
	}
	root, _ := v.(map[string]any)
	value, ok := root[a.TOML.Table]
	if !ok {
		return nil, nil
	}
	list, ok := value.([]any)
	var out []map[string]any
	for _, item := range list {
		m, isTable := item.(map[string]any)
		if !isTable {
			ok = false
			break
		}
		out = append(out, m)
	}
	if !ok {
		return nil, fmt.Errorf("%s is not an array of tables ([[%s]]), as %s reads its hooks", a.TOML.Table, tomlKey(a.TOML.Table), a.Name)
	}
	return out, nil
}

// tomlEntries are the entries of data's array whose command match
// accepts, of event (any event where it is empty), in the order of the
// file; index is an entry's place in the array.
func (a *Agent) tomlEntries(tables []map[string]any, event string, match func(command string) bool) []place {
	var out []place
	for i, t := range tables {
		ev, _ := t[a.TOML.EventKey].(string)
		cmd, _ := t[a.Command].(string)
		if cmd == "" || (event != "" && ev != event) || !match(cmd) {
			continue
		}
		value := &entryValue{}
		value.name, _ = t["name"].(string)
		value.strict, _ = t[a.Strict].(bool)
		switch n := t[a.Timeout.Field].(type) {
		case int64:
			value.timeout, value.hasTimeout = float64(n), true
		case float64:
			value.timeout, value.hasTimeout = n, true
		}
		out = append(out, place{event: ev, group: -1, index: i, command: cmd, value: value})
	}
	return out
}

// read decodes an agent's configuration file for doctor: its JSON, or,
// for an agent whose hooks are TOML tables, the entries of its array.
func (a *Agent) read(data []byte) (*document, error) {
	if a.TOML == nil {
		return decode(data, a.Comments)
	}
	tables, err := a.tomlTables(data)
	if err != nil {
		return nil, err
	}
	doc, _ := decode(nil, false) // an empty root: no JSON setting is there
	doc.data, doc.tables = data, tables
	return doc, nil
}

// hookEvents are the events the file names hooks of, in its order.
func (a *Agent) hookEvents(doc *document) []string {
	if a.TOML == nil {
		events, _ := hooksObject(doc.find(a.section(doc)...))
		return events
	}
	var out []string
	for _, t := range doc.tables {
		if ev, _ := t[a.TOML.EventKey].(string); ev != "" && !slices.Contains(out, ev) {
			out = append(out, ev)
		}
	}
	return out
}

// tomlFile is a TOML hooks file read for a change: its bytes, hookwire's
// block in it, the block's entries and every entry of the file.
type tomlFile struct {
	data          []byte
	block         tomlBlock
	ours, entries []map[string]any
}

// readTOMLHooks reads the agent's TOML file for a change. A file that does
// not parse, or whose block of hookwire's is broken, is an error naming
// its line.
func (a *Agent) readTOMLHooks(data []byte) (*tomlFile, error) {
	f := &tomlFile{data: data}
	var err error
	if f.entries, err = a.tomlTables(data); err != nil {
		return nil, err
	}
	if f.block, err = findTOMLBlock(data); err != nil || !f.block.found {
		return f, err
	}
	// The block parses alone, and holds nothing but its array's tables:
	// it is written again from what it holds.
	block := data[f.block.start:f.block.end]
	if f.ours, err = a.tomlTables(block); err != nil {
		return nil, fmt.Errorf("line %d: hookwire's block: %v", lineOf(data, f.block.start), err)
	}
	v, _ := decodeTOML(block)
	for k := range v.(map[string]any) {
		if k != a.TOML.Table {
			return nil, fmt.Errorf("line %d: hookwire's block holds %s, which hookwire does not write there: move it out of the block (between its two comment lines)", lineOf(data, f.block.start), tomlKey(k))
		}
	}
	return f, nil
}

// withBlock is the file with hookwire's block holding entries: written
// where the block was, appended at the end where there was none, taken out
// with its comment lines where entries is empty. The block's lines end as
// the file's do.
func (a *Agent) withBlock(f *tomlFile, entries []map[string]any) ([]byte, error) {
	var block []byte
	if len(entries) > 0 {
		var err error
		if block, err = a.renderTOMLBlock(entries); err != nil {
			return nil, fmt.Errorf("line %d: hookwire's block: %v", lineOf(f.data, f.block.start), err)
		}
		if crlf(f.data) {
			block = toCRLF(block)
		}
	}
	if f.block.found {
		return slices.Concat(f.data[:f.block.start], block, f.data[f.block.end:]), nil
	}
	out := slices.Clone(f.data)
	if len(out) > 0 && out[len(out)-1] != '\n' && len(block) > 0 {
		if crlf(f.data) {
			out = append(out, '\r')
		}
		out = append(out, '\n')
	}
	return append(out, block...), nil
}

// installTOML is install for an agent whose hooks are an array of tables
// in a TOML file: an entry for each event that has none with the hook's
// command yet, in hookwire's block. The file it would write must parse,
// with the new entries in the array, or nothing is written.
func installTOML(a *Agent, file string, before []byte, hook Hook, events []string) (Change, error) {
	ch := Change{File: file, Before: before, After: before, op: opInstall, command: hook.Command}
	f, err := a.readTOMLHooks(before)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	ours := slices.Clone(f.ours)
	same := func(cmd string) bool { return cmd == hook.Command }
	for _, event := range events {
		if len(a.tomlEntries(f.entries, event, same)) > 0 {
			ch.Kept = append(ch.Kept, event)
			continue
		}
		ours = append(ours, a.tomlEntry(hook, event))
		ch.Events = append(ch.Events, event)
	}
	if len(ch.Events) == 0 {
		return ch, nil
	}
	written, err := a.withBlock(f, ours)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	ch.After = written
	// The file as the agent will read it: it parses, and its array holds
	// the new entries (a [[hooks]] appended after a table of another
	// shape of that name would not).
	after, err := a.tomlTables(ch.After)
	if err == nil {
		for _, event := range ch.Events {
			if len(a.tomlEntries(after, event, same)) == 0 {
				err = fmt.Errorf("the entry for %s is not read back from the file", event)
			}
		}
	}
	if err != nil {
		ch.After = before
		return ch, fmt.Errorf("%s: with hookwire's hooks added, the file would not read as %s reads it (%v): nothing was written; add the hooks by hand", file, a.Name, err)
	}
	return ch, nil
}

// uninstallTOML is uninstall for an agent whose hooks are an array of
// tables in a TOML file: the entries of hookwire's block that match go,
// and the block once it is empty. An entry of hookwire's that the user
// moved out of the block is theirs to take out: it is said, not touched.
func uninstallTOML(a *Agent, file string, before []byte, command string, r *record) (Change, error) {
	ch := Change{File: file, Before: before, After: before, op: opUninstall}
	f, err := a.readTOMLHooks(before)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	match := a.installedBy(command, r)
	var kept []map[string]any
	for _, t := range f.ours {
		found := a.tomlEntries([]map[string]any{t}, "", match)
		if len(found) == 0 {
			kept = append(kept, t)
			continue
		}
		if !slices.Contains(ch.Events, found[0].event) {
			ch.Events = append(ch.Events, found[0].event)
		}
		if !slices.Contains(ch.removed, found[0].command) {
			ch.removed = append(ch.removed, found[0].command)
		}
	}
	if outside := len(a.tomlEntries(f.entries, "", match)) - (len(f.ours) - len(kept)); outside > 0 {
		ch.Notes = append(ch.Notes, fmt.Sprintf("%s: %d hook(s) of hookwire's are outside its block (between the %q and %q lines): uninstall leaves them; take them out by hand", file, outside, tomlBeginPrefix, tomlEndPrefix))
	}
	if len(ch.Events) == 0 {
		return ch, nil
	}
	written, err := a.withBlock(f, kept)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	ch.After = written
	if len(ch.After) == 0 { // the file held hookwire's block alone
		ch.After, ch.rest = nil, ch.After
	}
	return ch, nil
}

// tomlEntry is the hook's entry for event.
func (a *Agent) tomlEntry(hook Hook, event string) map[string]any {
	e := map[string]any{a.TOML.EventKey: event, a.Command: hook.Command}
	if a.TOML.MatcherKey != "" && a.Matcher != "" && toolEvent(a.facts(), event) {
		e[a.TOML.MatcherKey] = a.Matcher
	}
	switch {
	case a.TOML.UniqueNames:
		e["name"] = fmt.Sprintf("hookwire %s %s %08x", cmp.Or(hook.Name, "hook"), event, crc32.ChecksumIEEE([]byte(hook.Command)))
	case a.Named && hook.Name != "":
		e["name"] = hook.Name
	}
	if a.Timeout.Field != "" && hook.Timeout > 0 {
		e[a.Timeout.Field] = a.timeoutValue(hook.Timeout)
	}
	if a.Strict != "" && a.facts().Events[event].Guard {
		e[a.Strict] = true // a failed guard blocks the call
	}
	maps.Copy(e, a.TOML.Set)
	return e
}

// renderTOMLBlock writes entries as hookwire's block: its two comment
// lines around one [[table]] each, the keys install writes first, in the
// order of an entry, then the others by name.
func (a *Agent) renderTOMLBlock(entries []map[string]any) ([]byte, error) {
	first := []string{a.TOML.EventKey, a.TOML.MatcherKey, "name", a.Command, a.Timeout.Field, a.Strict}
	rank := func(k string) int {
		if i := slices.Index(first, k); i >= 0 {
			return i
		}
		return len(first)
	}
	var b strings.Builder
	b.WriteString(tomlBlockBegin + "\n")
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[[" + tomlKey(a.TOML.Table) + "]]\n")
		keys := slices.SortedFunc(maps.Keys(e), func(x, y string) int {
			if rx, ry := rank(x), rank(y); rx != ry {
				return rx - ry
			}
			return strings.Compare(x, y)
		})
		for _, k := range keys {
			v, err := tomlValue(e[k])
			if err != nil {
				return nil, fmt.Errorf("%s = %v: %v: move your own hooks out of the block (between its two comment lines)", k, e[k], err)
			}
			b.WriteString(tomlKey(k) + " = " + v + "\n")
		}
	}
	b.WriteString(tomlBlockEnd + "\n")
	return []byte(b.String()), nil
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tomlKey is a key as TOML writes it: bare where it may be.
func tomlKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlValue is a value of an entry in TOML: a string, a boolean or a
// number, the kinds of a hook's entry; another kind is an error.
func tomlValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		if !utf8.ValidString(v) {
			return "", fmt.Errorf("%q is not UTF-8, which TOML is", v)
		}
		return tomlString(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case float64:
		switch {
		case math.IsNaN(v):
			return "nan", nil
		case math.IsInf(v, 1):
			return "inf", nil
		case math.IsInf(v, -1):
			return "-inf", nil
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s, nil
	}
	return "", fmt.Errorf("a value of a kind hookwire does not write (%T)", v)
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
