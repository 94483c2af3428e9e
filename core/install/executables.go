package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// An agent whose hooks are programs of their own (agents.Executables:
// a folder with a file per event, named after it) gets from install a
// small sh script per event, which runs the bridge. Install writes a new
// file only: a file of that name that is not hookwire's is the user's own
// hook, which install never replaces, nor runs in a chain (it would then
// have to run a program a repository may have put there). Uninstall
// removes only the files whose text is install's. Doctor reads the files'
// text and runs none of them.

// scriptMark is the second line of every script install writes: how
// uninstall and doctor know the file is hookwire's.
const scriptMark = "# hookwire: written by hookwire install (hookwire uninstall removes it)."

// Script is the program install writes for an event: the bridge's command
// line, and, for a guard, a cancel of its own when the bridge fails (it is
// missing, or was killed before it answered): the agent takes a hook that
// prints nothing for one that allows, and the guard must not open because
// the bridge is gone. HOOK_CONTROL marks the line the agent reads before
// any other output.
func Script(command string, guard bool) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n" + scriptMark + "\n")
	if !guard {
		b.WriteString("exec " + command + "\n")
		return []byte(b.String())
	}
	b.WriteString("# A guard: when the bridge fails, the run ends here, with the reason.\n")
	b.WriteString(command + "\n")
	b.WriteString(`status=$?` + "\n")
	b.WriteString(`[ "$status" -eq 0 ] || printf 'HOOK_CONTROL\t{"cancel": true, "errorMessage": "hookwire ended the run: hookwire-bridge ended with status %s before it decided the call"}\n' "$status"` + "\n")
	return []byte(b.String())
}

// scriptCommand is the bridge's command line of a script install wrote,
// and whether it is a guard's; false for any other file, one that only
// looks like hookwire's included: its bytes must be those Script writes.
func scriptCommand(data []byte) (command string, guard, ours bool) {
	lines := strings.Split(string(data), "\n")
	if len(lines) < 3 || lines[0] != "#!/bin/sh" || lines[1] != scriptMark {
		return "", false, false
	}
	for _, line := range lines[2:] {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		command = strings.TrimPrefix(line, "exec ")
		break
	}
	for _, guard := range []bool{true, false} {
		if bytes.Equal(data, Script(command, guard)) {
			return command, guard, true
		}
	}
	return "", false, false
}

// scriptTarget is the target of the file of one event, in the folder t
// names. A link there is refused: the agent runs no link (Cline lists
// regular files only), and writing through it would change a file the
// link leads to.
func scriptTarget(t Target, event string) (Target, error) {
	file := filepath.Join(t.File, event)
	if info, err := os.Lstat(file); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return t, fmt.Errorf("%s is a symbolic link, which %s does not run as a hook and hookwire does not write through: remove it (rm %s) and run again", file, t.Agent.Name, file)
	}
	t.File = file
	return t, nil
}

// installScripts writes the script of each event, as State's Install does
// a settings file: under the file's lock, a new file renamed into place,
// made executable; an event whose file is the same script is kept, and one
// whose file is hookwire's older script gets the new one.
func (s *State) installScripts(t Target, hook Hook, events []string, dryRun bool) (Change, error) {
	all := Change{File: t.File, op: opInstall, folder: true}
	facts := t.Agent.facts()
	for _, event := range events {
		et, err := scriptTarget(t, event)
		if err != nil {
			return all, err
		}
		script := Script(hook.Command, facts.Events[event].Guard)
		part, err := s.change(et, dryRun, func(before []byte, _ *record) (Change, error) {
			ch := Change{File: et.File, Before: before, After: script, op: opInstall, command: hook.Command, mode: 0o755}
			_, _, ours := scriptCommand(before)
			switch {
			case before != nil && !ours:
				return ch, fmt.Errorf("%s is a hook of your own, not hookwire's: hookwire does not replace it, nor run it from its own (%s runs every file named after %s, in each of its hooks folders); rename it, keeping its extension of %s's (to %s.sh, say), and run again, or install with the other --scope", et.File, t.Agent.Name, event, t.Agent.Name, event)
			case bytes.Equal(before, script):
				ch.Kept = []string{event}
			default:
				ch.Events = []string{event}
			}
			return ch, nil
		})
		if err != nil {
			return all, err
		}
		all.add(part)
	}
	return all, nil
}

// uninstallScripts removes the scripts install wrote, of every event of
// the agent, or only those of command when it is not empty.
func (s *State) uninstallScripts(t Target, command string, dryRun bool) (Change, error) {
	all := Change{File: t.File, op: opUninstall, folder: true, After: []byte{}}
	for _, event := range slices.Sorted(maps.Keys(t.Agent.facts().Events)) {
		et, err := scriptTarget(t, event)
		if err != nil {
			continue // not install's: it writes no link
		}
		part, err := s.change(et, dryRun, func(before []byte, r *record) (Change, error) {
			ch := Change{File: et.File, Before: before, After: before, op: opUninstall}
			cmd, _, ours := scriptCommand(before)
			b, bridged := ParseCommand(cmd, nil)
			mine := r != nil && slices.Contains(r.Commands, cmd) || bridged && b.Installed && b.Agent == t.Agent.Name
			if !ours || (command != "" && cmd != command) || (command == "" && !mine) {
				return ch, nil
			}
			ch.After, ch.Events, ch.removed = nil, []string{event}, []string{cmd}
			return ch, nil
		})
		if err != nil {
			return all, err
		}
		all.add(part)
	}
	return all, nil
}

// add puts the change of one script into the change of the folder.
func (c *Change) add(part Change) {
	c.Events = append(c.Events, part.Events...)
	c.Kept = append(c.Kept, part.Kept...)
	if part.Changed() {
		c.Parts = append(c.Parts, part)
		c.Notes = append(c.Notes, part.Notes...)
	}
}

// installedScripts are the scripts of hookwire's in the folder of scope,
// each command with its events, and what doctor says of the other files
// there: the agent runs them too.
func (a *Agent) installedScripts(scope Scope, folder string) ([]Installed, []Finding) {
	var out []Installed
	var findings []Finding
	for _, event := range slices.Sorted(maps.Keys(a.facts().Events)) {
		file := filepath.Join(folder, event)
		info, err := os.Lstat(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			findings = append(findings, problem("check its permissions", "%s cannot be read: %v", file, err))
			continue
		case info.Mode()&fs.ModeSymlink != 0:
			findings = append(findings, note("%s is a symbolic link: %s runs no link as a hook, and doctor does not follow it", file, a.Name))
			continue
		}
		data, _, err := readTarget(file) // its text only: doctor runs no file a project names
		if err != nil {
			findings = append(findings, problem("check it", "%s cannot be read: %v", file, err))
			continue
		}
		cmd, guard, ours := scriptCommand(data)
		if !ours {
			findings = append(findings, note("%s is not hookwire's (nor as hookwire install wrote it): %s runs it for %s too", file, a.Name, event))
			continue
		}
		if a.facts().Events[event].Guard && !guard {
			findings = append(findings, problem("run hookwire install "+a.Name+" again", "%s runs the bridge for a guard without ending the run when the bridge fails: %s would then run the tool", file, a.Name))
		}
		i := slices.IndexFunc(out, func(h Installed) bool { return h.Command == cmd })
		if i < 0 {
			out = append(out, Installed{Scope: scope, File: folder, Command: cmd})
			i = len(out) - 1
		}
		out[i].Events = append(out[i].Events, event)
	}
	return out, findings
}
