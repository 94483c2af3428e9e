// The warm form of an agent's hooks (Claude Code's mcp_tool hooks,
// docs/bridge-mcp.md): in place of a command hook per event, hookwire's MCP
// server, `hookwire bridge --mcp`, declared where the agent reads its MCP
// servers, and an mcp_tool hook per event that calls the server's tool.

package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/bridge/mcptool"
)

// warmMarker stands for the warm form's mcp_tool hooks where a command
// line stands for a command hook: among an event's entries, and among the
// lines of hookwire's record of a settings file.
const warmMarker = "mcp_tool " + mcptool.Server + " " + mcptool.Tool

// serverKey is where a file declares hookwire's server.
var serverKey = []string{"mcpServers", mcptool.Server}

// isWarmHook says whether an entry is an mcp_tool hook that calls the tool
// of hookwire's server, as install writes it.
func isWarmHook(v *hujsonValue) bool {
	return text(child(v, "type")) == "mcp_tool" && text(child(v, "server")) == mcptool.Server && text(child(v, "tool")) == mcptool.Tool
}

// warmEntry is the mcp_tool hook of event: a guard's blocks the call when
// the server cannot answer (onFailure block).
func (a *Agent) warmEntry(hook Hook, event string) object {
	h := mcptool.Hook(a.MCPTool, a.facts().Events[event].Guard, hook.Timeout)
	var e object
	for _, k := range []string{"type", "server", "tool", "timeout", "onFailure", "input"} {
		if v, ok := h[k]; ok {
			e = append(e, member{k, v})
		}
	}
	return e
}

// WarmServer is the command of hookwire's MCP server for agent: hookwire by
// its absolute path, `bridge --mcp`, the agent, "--" and the hook.
func WarmServer(hookwire, agent string, hook []string) []string {
	return slices.Concat([]string{hookwire, "bridge", "--mcp", agent, "--"}, hook)
}

// ServerFile is the file that declares the agent's MCP servers for a hook
// of scope (MCPTool.Servers).
func (a *Agent) ServerFile(scope Scope, home, dir string) (string, error) {
	if !a.MCPTool.Installs() {
		return "", fmt.Errorf("%s has no warm form", a.Name)
	}
	rel, ok := a.MCPTool.Servers[scope]
	if !ok {
		return "", fmt.Errorf("%s declares no MCP server of scope %s", a.Name, scope)
	}
	base := dir
	if scope == User {
		base = home
	}
	return filepath.Join(base, filepath.FromSlash(rel)), nil
}

// serverArgv is a server entry's command and arguments, nil when it has no
// command.
func serverArgv(v *hujsonValue) []string {
	cmd := text(child(v, "command"))
	if cmd == "" {
		return nil
	}
	argv := []string{cmd}
	for _, arg := range elements(child(v, "args")) {
		argv = append(argv, text(&arg))
	}
	return argv
}

// sameJSON says whether v holds the value want, as JSON: the same members,
// no other.
func sameJSON(v *hujsonValue, want any) bool {
	var got, wanted any
	std := v.Clone()
	std.Standardize()
	w, err := json.Marshal(want)
	return err == nil && json.Unmarshal(std.Pack(), &got) == nil && json.Unmarshal(w, &wanted) == nil && reflect.DeepEqual(got, wanted)
}

// notOurs refuses a server of hookwire's name that install did not write:
// a cloned repository may ship one that runs something else, and
// install's hooks would make the agent start it.
func notOurs(file string, argv []string) error {
	return fmt.Errorf("%s: mcpServers.%s runs %s, which hookwire install did not write: hookwire never enables or keeps a server of its name that is not its own (a repository may ship one that runs something else); take the entry out of %s (or give it another name) and run again",
		file, mcptool.Server, ShellLine(argv), file)
}

// installServer declares hookwire's server, argv, in the agent's file of
// MCP servers: kept where it is there exactly, put in place of one install
// wrote (its record names it: another hook, hookwire moved), refused where
// the file has another of its name.
func installServer(file string, before []byte, argv []string, r *record) (Change, error) {
	line := ShellLine(argv)
	ch := Change{File: file, Before: before, After: before, op: opInstall, command: line}
	doc, err := decode(before, false)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	entry := mcptool.ServerEntry(argv)
	if v := doc.find(serverKey...); v != nil {
		switch have := serverArgv(v); {
		case sameJSON(v, entry):
			ch.Kept = []string{serverKey[0] + "." + serverKey[1]}
			return ch, nil
		case r != nil && slices.Contains(r.Commands, ShellLine(have)):
			doc.remove(serverKey[:1], serverKey[1], -1)
			ch.removed = []string{ShellLine(have)}
		default:
			return ch, notOurs(file, have)
		}
	}
	if doc.find(serverKey[0]) == nil {
		if err := doc.add(nil, serverKey[0], object{}); err != nil {
			return ch, fmt.Errorf("%s: %v", file, err)
		}
		ch.added.servers = true
	}
	value := object{{"type", entry["type"]}, {"command", entry["command"]}, {"args", entry["args"]}}
	if err := doc.add(serverKey[:1], serverKey[1], value); err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	ch.Events = []string{serverKey[0] + "." + serverKey[1]}
	ch.After = finish(before, doc.bytes())
	return ch, nil
}

// uninstallServer takes hookwire's server out of the file, where install
// wrote it (its record names it) or, without a record, where it runs
// hookwire by its absolute path as install writes it; the mcpServers
// object goes too where install added it and left it empty.
func uninstallServer(a *Agent, file string, before []byte, r *record) (Change, error) {
	ch := Change{File: file, Before: before, After: before, op: opUninstall}
	if before == nil {
		return ch, nil
	}
	doc, err := decode(before, false)
	if err != nil {
		return ch, fmt.Errorf("%s: %v", file, err)
	}
	v := doc.find(serverKey...)
	if v == nil {
		return ch, nil
	}
	argv := serverArgv(v)
	line := ShellLine(argv)
	b, isBridge := parseServer(argv)
	ours := isBridge && b.Agent == a.Name && filepath.IsAbs(b.Bridge)
	if r != nil {
		ours = slices.Contains(r.Commands, line)
	}
	if !ours {
		return ch, nil
	}
	doc.remove(serverKey[:1], serverKey[1], -1)
	if doc.empty(serverKey[0]) && r != nil && r.AddedServers {
		doc.remove(nil, serverKey[0], -1)
	}
	ch.Events, ch.removed = []string{serverKey[0] + "." + serverKey[1]}, []string{line}
	ch.After = doc.bytes()
	if leftover(doc, a) {
		ch.After, ch.rest = nil, ch.After
	}
	return ch, nil
}

// finish ends a new file with a newline, and every line with CR LF where
// the file had them so.
func finish(before, after []byte) []byte {
	if before == nil && (len(after) == 0 || after[len(after)-1] != '\n') {
		after = append(after, '\n')
	}
	if crlf(before) {
		after = toCRLF(after)
	}
	return after
}

// parseServer reads a server's command as `hookwire bridge [flags] --mcp
// [flags] AGENT -- HOOK...`: hookwire's server, whatever hook it names.
func parseServer(argv []string) (Bridged, bool) {
	b := Bridged{}
	if len(argv) < 2 || filepath.Base(argv[0]) != "hookwire" || argv[1] != "bridge" {
		return b, false
	}
	b.Bridge = argv[0]
	words, mcp := argv[2:], false
	for len(words) > 0 && len(words[0]) > 1 && words[0][0] == '-' && words[0] != "--" {
		name := words[0]
		words = words[1:]
		switch name {
		case "--mcp", "-mcp":
			mcp = true
		case "--env-clear", "-env-clear":
		default:
			if !strings.Contains(name, "=") && len(words) > 0 {
				words = words[1:]
			}
		}
	}
	if !mcp || len(words) < 3 || words[1] != "--" {
		return b, false
	}
	b.Agent, b.Hook = words[0], words[2:]
	return b, true
}

// enableServer adds hookwire's server to the settings' list of the
// project's servers the agent starts (MCPTool.Enable), where it is not
// there.
func (a *Agent) enableServer(doc *document, ch *Change) error {
	list := a.MCPTool.Enable
	for _, v := range elements(doc.find(list)) {
		if text(&v) == mcptool.Server {
			return nil
		}
	}
	if doc.find(list) == nil {
		if err := doc.add(nil, list, []any{}); err != nil {
			return err
		}
		ch.added.enableList = true
	}
	if err := doc.add([]string{list}, "", mcptool.Server); err != nil {
		return err
	}
	ch.added.enabled = true
	return nil
}

// disableServer takes hookwire's server out of the list install added it
// to, and the list where install made it and left it empty.
func (a *Agent) disableServer(doc *document, r *record) {
	if !a.MCPTool.Installs() || r == nil || !r.AddedEnabled {
		return
	}
	list := a.MCPTool.Enable
	for i, v := range elements(doc.find(list)) {
		if text(&v) == mcptool.Server {
			doc.remove([]string{list}, "", i)
			break
		}
	}
	if doc.empty(list) && r.AddedEnableList {
		doc.remove(nil, list, -1)
	}
}

// otherForm refuses to install one form of the hooks into a file that has
// the other form that install writes: the hook would run twice an event.
func (a *Agent) otherForm(doc *document, file string, warm bool) error {
	events, _ := hooksObject(doc.find(a.section(doc)...))
	for _, event := range events {
		found := a.entries(doc, event, func(cmd string) bool {
			if warm {
				b, ok := ParseCommand(cmd, nil)
				return ok && b.Installed && b.Agent == a.Name
			}
			return cmd == warmMarker
		})
		if len(found) == 0 {
			continue
		}
		have, want := "the warm form (mcp_tool hooks of hookwire's MCP server)", "command hooks"
		if warm {
			have, want = "command hooks of hookwire's ("+found[0].command+")", "the warm form"
		}
		return fmt.Errorf("%s has %s on %s: with %s too, the hook would run twice an event; take them out first (hookwire uninstall %s, with the --scope of this file) and run again", file, have, event, want, a.Name)
	}
	return nil
}

// InstallWarm writes the warm form: hookwire's server, argv, into the file
// of MCP servers server, and an mcp_tool hook per event into t's settings,
// which also enable the server where its file is the project's. Both
// changes are made (dry) before either is written: a file that refuses
// (a server of hookwire's name that is not install's, the command form
// there) leaves both as they were. The changes are the server's, then the
// settings'.
func (s *State) InstallWarm(t, server Target, argv []string, hook Hook, events []string, dryRun bool) ([]Change, error) {
	hook.Warm, hook.Enable = true, server.Scope != User
	steps := []struct {
		t  Target
		do func(before []byte, r *record) (Change, error)
	}{
		{server, func(before []byte, r *record) (Change, error) { return installServer(server.File, before, argv, r) }},
		{t, func(before []byte, _ *record) (Change, error) { return install(t.Agent, t.File, before, hook, events) }},
	}
	var out []Change
	for _, write := range []bool{false, true} {
		if write && dryRun {
			break
		}
		out = out[:0]
		for _, step := range steps {
			ch, err := s.change(step.t, !write, step.do)
			out = append(out, ch)
			if err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// UninstallServer takes hookwire's server out of the file of MCP servers
// t, where install wrote it, as Uninstall takes hooks out.
func (s *State) UninstallServer(t Target, dryRun bool) (Change, error) {
	return s.uninstallWith(t, dryRun, func(before []byte, r *record) (Change, error) {
		return uninstallServer(t.Agent, t.File, before, r)
	})
}
