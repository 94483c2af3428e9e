package install

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"slices"
)

// An agent whose hooks are a plugin of its plugin API (agents.Plugin:
// OpenCode, and its forks) gets from install one ES module in its plugins
// folder: sdk-node's opencode-plugin, bundled (codegen writes
// opencode-plugin.gen.js), with its configuration above it: hookwire's
// warm server (hookwire bridge --mcp AGENT -- HOOK), which the plugin
// starts once per agent process and asks each event, and how long it
// waits for an answer. Install writes a new file only: a file of that name
// that is not hookwire's is the user's own plugin, which install never
// replaces. Uninstall removes only a file whose text is install's. Doctor
// reads the file's text and runs nothing.

//go:embed opencode-plugin.gen.js
var pluginCode []byte

// pluginMark is the first line of every plugin install writes: how
// install, uninstall and doctor know the file is hookwire's.
const pluginMark = "// hookwire: written by hookwire install (hookwire uninstall removes it)."

// pluginConfigPrefix starts the second line, the plugin's configuration.
const pluginConfigPrefix = "const HOOKWIRE_PLUGIN = "

// PluginConfig is what the plugin is told (sdk-node's PluginConfig): the
// server's command line, and the longest it waits for its answer.
type PluginConfig struct {
	Server    []string `json:"server"`
	TimeoutMS int64    `json:"timeoutMs"`
}

// PluginModule is the module install writes: the mark, the configuration (JSON,
// which is a JavaScript expression) and the plugin's code.
func PluginModule(c PluginConfig) []byte {
	config, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings and a number always encode
	}
	return slices.Concat([]byte(pluginMark+"\n"+pluginConfigPrefix), config, []byte(";\n"), pluginCode)
}

// readPlugin reads a plugin file's configuration: marked says that the
// file is hookwire's by its first line, current that its bytes are what
// this hookwire writes for that configuration (the code of another
// hookwire's plugin, or a file that only looks like hookwire's, is not).
func readPlugin(data []byte) (c PluginConfig, marked, current bool) {
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(first) != pluginMark {
		return c, false, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	config, ok := bytes.CutPrefix(line, []byte(pluginConfigPrefix))
	config, ok2 := bytes.CutSuffix(config, []byte(";"))
	dec := json.NewDecoder(bytes.NewReader(config))
	dec.DisallowUnknownFields()
	if !ok || !ok2 || dec.Decode(&c) != nil || len(c.Server) == 0 {
		return PluginConfig{}, true, false
	}
	return c, true, bytes.Equal(data, PluginModule(c))
}

// pluginFile refuses a link where the plugin goes: writing through it
// would change the file it leads to.
func pluginFile(t Target) error {
	if info, err := os.Lstat(t.File); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, which hookwire does not write through: remove it (rm %s) and run again", t.File, t.File)
	}
	return nil
}

// installPlugin writes the plugin as State's Install writes a settings
// file: under the file's lock, a new file renamed into place. A file of
// the same bytes is kept; hookwire's plugin of another configuration or
// version is replaced.
func (s *State) installPlugin(t Target, hook Hook, dryRun bool) (Change, error) {
	events := pluginEvents(t.Agent)
	if err := pluginFile(t); err != nil {
		return Change{File: t.File}, err
	}
	// The plugin waits for the server's answer as long as an entry's
	// timeout would: past the bridge's deadline.
	plugin := PluginModule(PluginConfig{Server: hook.Server, TimeoutMS: hook.Timeout.Milliseconds()})
	return s.change(t, dryRun, func(before []byte, _ *record) (Change, error) {
		ch := Change{File: t.File, Before: before, After: plugin, op: opInstall, command: hook.Command}
		_, marked, _ := readPlugin(before)
		switch {
		case before != nil && !marked:
			return ch, fmt.Errorf("%s is a plugin of your own, not hookwire's: hookwire does not replace it; rename it and run again, or install with the other --scope", t.File)
		case bytes.Equal(before, plugin):
			ch.Kept = events
		default:
			ch.Events = events
		}
		return ch, nil
	})
}

// uninstallPlugin removes the plugin install wrote, or only one whose
// server is command's when command is not empty.
func (s *State) uninstallPlugin(t Target, command string, dryRun bool) (Change, error) {
	if err := pluginFile(t); err != nil {
		return Change{File: t.File}, nil // not install's: it writes no link
	}
	return s.change(t, dryRun, func(before []byte, r *record) (Change, error) {
		ch := Change{File: t.File, Before: before, After: before, op: opUninstall}
		c, marked, _ := readPlugin(before)
		line := ShellLine(c.Server)
		b, bridged := parseServer(c.Server)
		mine := r != nil && slices.Contains(r.Commands, line) || bridged && b.Agent == t.Agent.Name
		if !marked || (command != "" && line != command) || (command == "" && !mine) {
			return ch, nil
		}
		ch.After, ch.Events, ch.removed = nil, pluginEvents(t.Agent), []string{line}
		return ch, nil
	})
}

// installedPlugin is hookwire's plugin in file, and what doctor says of a
// file there that is not it, or not as this hookwire writes it.
func (a *Agent) installedPlugin(scope Scope, file string) ([]Installed, []Finding) {
	info, err := os.Lstat(file)
	switch {
	case err != nil:
		return nil, nil
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, []Finding{note("%s is a symbolic link, which doctor does not follow: %s loads what it leads to as a plugin", file, a.Name)}
	}
	data, _, err := readTarget(file) // its text only: doctor runs no file a project names
	if err != nil {
		return nil, []Finding{problem("check it", "%s cannot be read: %v", file, err)}
	}
	c, marked, current := readPlugin(data)
	switch {
	case !marked:
		return nil, []Finding{note("%s is not hookwire's plugin: %s loads it as a plugin of its own", file, a.Name)}
	case !current:
		return nil, []Finding{problem("run hookwire install "+a.Name+" again", "%s is hookwire's plugin, but not as this hookwire writes it (another version's, or changed by hand): %s runs its code as it is", file, a.Name)}
	}
	return []Installed{{Scope: scope, File: file, Command: ShellLine(c.Server), server: c.Server, Events: pluginEvents(a)}}, nil
}

// checkPlugin checks the server a plugin starts: hookwire's, for this
// agent, and there.
func (a *Agent) checkPlugin(h *Installed, dir string) (Bridged, []Finding, string) {
	b, ours := parseServer(h.server)
	if !ours {
		return b, []Finding{problem("run hookwire install "+a.Name+" again", "the plugin starts %s, not hookwire's server (hookwire bridge --mcp %s)", h.Command, a.Name)}, "it is not hookwire's"
	}
	if b.Agent != a.Name {
		return b, []Finding{problem("run hookwire install "+a.Name+" again", "the plugin starts hookwire's server for %s, in %s's plugins", b.Agent, a.Name)}, "it is another agent's"
	}
	path, err := exec.LookPath(b.Bridge)
	if err != nil {
		return b, []Finding{problem("run hookwire install "+a.Name+" again, to write where hookwire is now", "the plugin's server %s is not there: %v", b.Bridge, err)}, "its server is not there"
	}
	return b, []Finding{ok("the plugin's server is hookwire, %s", path)}, ""
}

// pluginEvents are the plugin's events as install reports them: all of the
// agent's, since the plugin forwards each.
func pluginEvents(a *Agent) []string {
	return slices.Sorted(maps.Keys(a.facts().Events))
}
