package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// Events are the events of agent a hook of these modes needs: those whose
// calls ask a stage of its modes, with the event where their context waits
// (Gemini CLI's AfterAgent) lest it be lost, every event observers get when
// it observes, the user's prompt where an event guards a tool (it ends the
// turn an abort blocks), and the event that ends the session, so that the
// bridge's server stops with it. They come from the agent's events.
func Events(agent *agents.Agent, modes []protocol.Mode) []string {
	var out []string
	for name, step := range agent.Events {
		need := step.EndsSession || (step.Kind != "" && slices.Contains(modes, protocol.ModeObserve))
		for _, st := range step.Calls {
			if m, ok := protocol.Lookup(st.Method()); ok && slices.Contains(modes, m.Mode) {
				need = true
			}
		}
		if need && step.NotMapped == "" {
			out = append(out, name)
			if step.ContextLater != "" {
				out = append(out, step.ContextLater)
			}
			// After an abort, the bridge blocks every guarded call until
			// the user's next prompt (or the end of the turn, for an agent
			// with no prompt event): the agent must tell it of that, or the
			// session stays blocked to its end.
			if over := agent.TurnOverEvent(); step.Guard && over != "" {
				out = append(out, over)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// toolEvent says whether an event of the agent is about a tool call, where
// the agent's matcher applies.
func toolEvent(agent *agents.Agent, event string) bool {
	for _, st := range agent.Events[event].Calls {
		if st == agents.BeforeTool || st == agents.Approval || st == agents.AfterTool {
			return true
		}
	}
	return false
}

// Path is the agent's configuration file of scope, under home for the
// user's scope (or $XDG_CONFIG_HOME, for an agent that reads it there:
// Install.XDGConfig) and under dir for the others.
func (a *Agent) Path(scope Scope, home, dir string) (string, error) {
	rel, ok := a.Files[scope]
	if !ok {
		var known []string
		for _, s := range Scopes {
			if _, ok := a.Files[s]; ok {
				known = append(known, string(s))
			}
		}
		return "", fmt.Errorf("%s has no %s configuration file (its scopes: %s)", a.Name, scope, strings.Join(known, ", "))
	}
	base := dir
	if scope == User {
		base = home
		if config, ok := strings.CutPrefix(rel, ".config/"); ok && a.XDGConfig && filepath.IsAbs(os.Getenv("XDG_CONFIG_HOME")) {
			base, rel = os.Getenv("XDG_CONFIG_HOME"), config
		}
	}
	return filepath.Join(base, filepath.FromSlash(rel)), nil
}

// Hook is what install writes for each event.
type Hook struct {
	// Command is the line the agent runs with sh -c.
	Command string
	// Name is the hook's name, where the agent's entries have one.
	Name string
	// Timeout is the entry's timeout, written in the agent's unit.
	Timeout time.Duration
	// Warm writes the warm form: mcp_tool hooks that call hookwire's MCP
	// server (warm.go), where the agent has them, in place of commands;
	// Enable adds the server to the settings' list of the project's
	// servers the agent starts.
	Warm, Enable bool
	// Server is hookwire's warm server's command line (WarmServer), which
	// the plugin of an agent of agents.Plugin starts; Command is then that
	// line quoted for sh, as install records it.
	Server []string
}

// Change is what install or uninstall does to one file.
type Change struct {
	File string
	// Before is the file's bytes, nil when it does not exist; After is
	// nil when the file is to be removed.
	Before, After []byte
	// Events are the events written (install) or cleared (uninstall);
	// Kept are those that had the hook already.
	Events, Kept []string
	// Target is the file written: File, or the file File's links lead to
	// (State's methods set it); Linked says that File itself is a link.
	Target string
	Linked bool
	// Backup is where hookwire's state folder keeps the file as it was
	// before hookwire's first change, "" when it keeps none; NewBackup
	// says that this change made it.
	Backup    string
	NewBackup bool
	// Restored says that uninstall gives the file back as it was before
	// install: its bytes, or no file where install made it.
	Restored bool
	// Notes are what the user should know of how the change was made.
	Notes []string
	// Parts are, for an agent whose hooks are files of their own
	// (Executables), the change of each file; File is then their folder.
	Parts []Change

	op      op
	command string      // install: the hook's command (warmMarker for the warm form; a server's line)
	added   added       // install: what it adds besides the entries
	removed []string    // uninstall: the commands taken out; install: a server replaced
	rest    []byte      // uninstall: what is left, where After is nil
	mode    fs.FileMode // install: a new file's mode, 0644 when zero
	folder  bool        // the change of a folder of files: its Parts
}

// op is which change.
type op int

const (
	opInstall op = iota + 1
	opUninstall
)

// added is what an install adds to a file besides its entries.
type added struct {
	version, hooks bool
	events         []string
	// The warm form's: the mcpServers object, the settings' list of
	// enabled servers, and hookwire's server in it.
	servers, enableList, enabled bool
}

// Changed says whether the file changes, or one of its Parts.
func (c Change) Changed() bool {
	if c.folder {
		return len(c.Parts) > 0 // add keeps only the parts that change
	}
	return !bytes.Equal(c.Before, c.After) || (c.Before == nil) != (c.After == nil)
}

// Diff is the change as a unified diff, of each of its Parts in turn.
func (c Change) Diff() string {
	if c.folder {
		var out strings.Builder
		for _, p := range c.Parts {
			out.WriteString(p.Diff())
		}
		return out.String()
	}
	from, to := c.File, c.File
	if c.Before == nil {
		from = "/dev/null"
	}
	if c.After == nil {
		to = "/dev/null"
	}
	d, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(c.Before)), B: difflib.SplitLines(string(c.After)),
		FromFile: from, ToFile: to, Context: 3,
	})
	return d
}

// read is the file's bytes, nil when it does not exist.
func read(file string) ([]byte, error) {
	info, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes, more than a settings file has", file, info.Size())
	}
	return os.ReadFile(file)
}

// Install merges the hook into the agent's file for each event: other
// hooks and settings keep their bytes, and an event that has the command
// already is left as it is. In a file whose every line ends with CR LF,
// the lines install adds end so too. It reads the file at its path, links
// followed, and writes nothing: State's Install is the one that writes.
func Install(a *Agent, file string, hook Hook, events []string) (Change, error) {
	before, err := read(file)
	if err != nil {
		return Change{}, err
	}
	return install(a, file, before, hook, events)
}

// install is Install on the file's bytes.
func install(a *Agent, file string, before []byte, hook Hook, events []string) (Change, error) {
	if a.TOML != nil {
		return installTOML(a, file, before, hook, events)
	}
	doc, err := decode(before, a.Comments)
	if err != nil {
		return Change{File: file, Before: before}, fmt.Errorf("%s: %v", file, err)
	}
	if hook.Warm {
		hook.Command = warmMarker
	}
	if err := a.otherForm(doc, file, hook.Warm); err != nil {
		return Change{File: file, Before: before, After: before}, err
	}
	ch := Change{File: file, Before: before, op: opInstall, command: hook.Command}
	facts := a.facts()
	if a.Layout == Flat && doc.find("version") == nil {
		if err := doc.add(nil, "version", 1); err != nil {
			return ch, err
		}
		ch.added.version = true
	}
	if doc.find("hooks") == nil && !a.Bare {
		if err := doc.add(nil, "hooks", object{}); err != nil {
			return ch, err
		}
		ch.added.hooks = true
	}
	section := a.section(doc)
	for _, event := range events {
		if len(a.entries(doc, event, func(cmd string) bool { return cmd == hook.Command })) > 0 {
			ch.Kept = append(ch.Kept, event)
			continue
		}
		if doc.find(append(section, event)...) == nil {
			if err := doc.add(section, event, []any{}); err != nil {
				return ch, fmt.Errorf("%s: %v", file, err)
			}
			ch.added.events = append(ch.added.events, event)
		}
		var value any = a.entry(hook, event)
		if a.Layout == Grouped {
			group := object{}
			if a.Matcher != "" && toolEvent(facts, event) {
				group = append(group, member{"matcher", a.Matcher})
			}
			value = append(group, member{"hooks", []any{value}})
		}
		if err := doc.add(append(section, event), "", value); err != nil {
			return ch, fmt.Errorf("%s: %v", file, err)
		}
		ch.Events = append(ch.Events, event)
	}
	if hook.Warm && hook.Enable {
		if err := a.enableServer(doc, &ch); err != nil {
			return ch, fmt.Errorf("%s: %v", file, err)
		}
	}
	ch.After = finish(before, doc.bytes())
	return ch, nil
}

// entry is the hook's entry of event in the agent's form.
func (a *Agent) entry(hook Hook, event string) object {
	if hook.Warm {
		return a.warmEntry(hook, event)
	}
	var e object
	if a.Typed {
		e = append(e, member{"type", "command"})
	}
	if a.Named && hook.Name != "" {
		e = append(e, member{"name", hook.Name})
	}
	e = append(e, member{a.Command, hook.Command})
	if a.Timeout.Field != "" && hook.Timeout > 0 {
		e = append(e, member{a.Timeout.Field, a.timeoutValue(hook.Timeout)})
	}
	if a.ShowOutput != "" {
		e = append(e, member{a.ShowOutput, true})
	}
	return e
}

// section is the path of the document's hooks section: "hooks", or, for
// an agent that reads its events at the top level, the top level of a
// file that has no "hooks".
func (a *Agent) section(doc *document) []string {
	if a.Bare && doc.find("hooks") == nil {
		return nil
	}
	return []string{"hooks"}
}

// place is where an entry is: its event, its group (Grouped), its index.
type place struct {
	event        string
	group, index int
	command      string
	value        *entryValue
}

// entryValue is an entry's members doctor reads.
type entryValue struct {
	timeout    float64
	hasTimeout bool
	name       string
	// strict says that the entry has the agent's switch that makes a failed
	// guard block the call (Install.Strict) set true.
	strict bool
}

// entries are the command entries of event whose command match accepts,
// in the order of the file; the warm form's mcp_tool hooks are entries
// whose command is warmMarker.
func (a *Agent) entries(doc *document, event string, match func(command string) bool) []place {
	if a.TOML != nil {
		return a.tomlEntries(doc.tables, event, match)
	}
	var out []place
	visit := func(group int, list []hujsonValue) {
		for i := range list {
			cmd := text(child(&list[i], a.Command))
			if cmd == "" && a.MCPTool.Installs() && isWarmHook(&list[i]) {
				cmd = warmMarker
			}
			if cmd == "" || !match(cmd) {
				continue
			}
			ev := &entryValue{name: text(child(&list[i], "name"))}
			ev.timeout, ev.hasTimeout = number(child(&list[i], a.Timeout.Field))
			out = append(out, place{event: event, group: group, index: i, command: cmd, value: ev})
		}
	}
	list := elements(doc.find(append(a.section(doc), event)...))
	if a.Layout.Lists() {
		visit(-1, list)
		return out
	}
	for g := range list {
		visit(g, elements(child(&list[g], "hooks")))
	}
	return out
}

// Uninstall takes out of the agent's file the entries install wrote (those
// whose command runs hookwire-bridge by its absolute path for this agent),
// of every event, or only those of command when it is not empty. A group,
// an event or a hooks section left empty goes too. After is nil when the
// file is left with nothing but what install adds to a new file; the
// bytes left are then kept for a file install did not make (State's
// Uninstall and Write decide, by hookwire's record of the file).
func Uninstall(a *Agent, file, command string) (Change, error) {
	before, err := read(file)
	if err != nil || before == nil {
		return Change{File: file, Before: before, After: before, op: opUninstall}, err
	}
	return uninstall(a, file, before, command, nil)
}

// installedBy says whether an entry's command is one uninstall takes out:
// command, where it is not empty; else one hookwire's record of the file
// holds (r, where there is one), or one that runs hookwire-bridge by its
// absolute path for this agent.
func (a *Agent) installedBy(command string, r *record) func(cmd string) bool {
	return func(cmd string) bool {
		if command != "" {
			return cmd == command
		}
		if (r != nil && slices.Contains(r.Commands, cmd)) || cmd == warmMarker {
			return true
		}
		b, ok := ParseCommand(cmd, nil)
		return ok && b.Installed && b.Agent == a.Name
	}
}

// uninstall is Uninstall on the file's bytes, with hookwire's record of
// the file where there is one: then the commands it holds go too, whatever
// the bridge's name, and of the sections and events left empty only those
// install added, and Flat's "version" where install added it.
func uninstall(a *Agent, file string, before []byte, command string, r *record) (Change, error) {
	ch := Change{File: file, Before: before, After: before, op: opUninstall}
	if before == nil {
		return ch, nil
	}
	if a.TOML != nil {
		return uninstallTOML(a, file, before, command, r)
	}
	doc, err := decode(before, a.Comments)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	match := a.installedBy(command, r)
	addedByInstall := func(event string) bool { return r == nil || slices.Contains(r.AddedEvents, event) }
	section := a.section(doc)
	events, _ := hooksObject(doc.find(section...))
	for _, event := range events {
		found := a.entries(doc, event, match)
		if len(found) == 0 {
			continue
		}
		ch.Events = append(ch.Events, event)
		for i := len(found) - 1; i >= 0; i-- { // from the end, so that indexes hold
			p := found[i]
			if !slices.Contains(ch.removed, p.command) {
				ch.removed = append(ch.removed, p.command)
			}
			list := append(slices.Clip(section), event)
			if a.Layout.Lists() {
				doc.remove(list, "", p.index)
				continue
			}
			group := append(slices.Clip(list), strconv.Itoa(p.group))
			doc.remove(append(group, "hooks"), "", p.index)
			if doc.empty(append(group, "hooks")...) {
				doc.remove(list, "", p.group)
			}
		}
		if doc.empty(append(slices.Clip(section), event)...) && addedByInstall(event) {
			doc.remove(section, event, -1)
		}
	}
	if len(ch.Events) == 0 {
		return ch, nil
	}
	if slices.Contains(ch.removed, warmMarker) {
		a.disableServer(doc, r)
	}
	if len(section) > 0 && doc.empty("hooks") && (r == nil || r.AddedHooks) {
		doc.remove(nil, "hooks", -1)
	}
	if r != nil && r.AddedVersion && a.Layout == Flat && (doc.find("hooks") == nil || doc.empty("hooks")) {
		doc.remove(nil, "version", -1)
	}
	ch.After = doc.bytes()
	if leftover(doc, a) {
		ch.After, ch.rest = nil, ch.After
	}
	return ch, nil
}

// leftover says whether the document holds nothing but what install adds
// to a new file: no member, or Flat's version alone, and no comment (a
// "//" in a string keeps the file too: in doubt, keep it).
func leftover(doc *document, a *Agent) bool {
	if bytes.Contains(doc.bytes(), []byte("//")) || bytes.Contains(doc.bytes(), []byte("/*")) {
		return false
	}
	obj := doc.root.Value.(*hujsonObject)
	switch len(obj.Members) {
	case 0:
		return true
	case 1:
		return a.Layout == Flat && text(&obj.Members[0].Name) == "version"
	}
	return false
}
