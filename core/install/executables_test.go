package install

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// An agent whose hooks are files of their own gets a script per event, made
// executable; a second install changes nothing; a user's own file of that
// name is refused, naming it and the fix, and is left as it was; a link is
// refused; uninstall removes hookwire's scripts and nothing else; doctor
// finds the scripts by their text.
func TestInstallWritesAScriptPerEventAndNeverTheUsersOwn(t *testing.T) {
	for name, a := range Agents {
		if a.Layout != Executables {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			st, err := OpenState(true)
			if err != nil {
				t.Fatal(err)
			}
			home, dir := t.TempDir(), t.TempDir()
			folder, _ := a.Path(Project, home, dir)
			target := Target{Agent: a, Scope: Project, File: folder, Project: dir}
			hook := testHook(name)
			events := Events(agents.ByName(name), guardModes)
			ch, err := st.Install(target, hook, events, false)
			if err != nil || len(ch.Events) != len(events) {
				t.Fatalf("install: %v, events %v, want %v", err, ch.Events, events)
			}
			for _, event := range events {
				info, err := os.Stat(filepath.Join(folder, event))
				if err != nil || info.Mode().Perm()&0o111 == 0 {
					t.Errorf("%s: %v, mode %v: want an executable script", event, err, info)
				}
			}
			if ch, err := st.Install(target, hook, events, false); err != nil || ch.Changed() || len(ch.Kept) != len(events) {
				t.Errorf("a second install: %v, changed %v, kept %v", err, ch.Changed(), ch.Kept)
			}
			r := Doctor(context.Background(), a, home, dir, DoctorOptions{})
			if len(r.Hooks) != 1 || r.Hooks[0].Command != hook.Command || len(r.Hooks[0].Events) != len(events) {
				t.Fatalf("doctor found %+v, want the one command for %v", r.Hooks, events)
			}
			// That a cancel ends the whole run, and what the script does
			// when the bridge fails, is said at install and at doctor.
			said := func(f Finding) bool { return f.Text == a.FailsOpen }
			if a.FailsOpen == "" || !slices.Contains(Caveats(a, Project, events), a.FailsOpen) || !slices.ContainsFunc(r.Hooks[0].Findings, said) {
				t.Errorf("install's notes %v and doctor's %+v do not say %q", Caveats(a, Project, events), r.Hooks[0].Findings, a.FailsOpen)
			}

			// The user's own hook of the same name, in the user's folder.
			userFolder, _ := a.Path(User, home, dir)
			os.MkdirAll(userFolder, 0o755)
			own := []byte("#!/bin/sh\necho '{}'\n")
			ownFile := filepath.Join(userFolder, "PreToolUse")
			os.WriteFile(ownFile, own, 0o755)
			_, err = st.Install(Target{Agent: a, Scope: User, File: userFolder}, hook, events, false)
			if err == nil || !strings.Contains(err.Error(), ownFile) || !strings.Contains(err.Error(), "PreToolUse.sh") {
				t.Errorf("install over the user's own PreToolUse: %v; want a refusal naming it and the fix", err)
			}
			if b, _ := os.ReadFile(ownFile); !bytes.Equal(b, own) {
				t.Errorf("the user's own file became %q", b)
			}
			// A project whose hooks folder leads out of it.
			outside, elsewhere := t.TempDir(), t.TempDir()
			os.Symlink(outside, filepath.Join(elsewhere, filepath.Dir(a.Files[Project])))
			linked, _ := a.Path(Project, home, elsewhere)
			if _, err := st.Install(Target{Agent: a, Scope: Project, File: linked, Project: elsewhere}, hook, events, false); err == nil || !strings.Contains(err.Error(), "out of the project") {
				t.Errorf("install through a project's link out of it: %v", err)
			}
			if left, _ := os.ReadDir(outside); len(left) > 0 {
				t.Errorf("install wrote out of the project: %v", left)
			}
			// A link where the script would go.
			linkFolder := filepath.Join(t.TempDir(), "hooks")
			os.MkdirAll(linkFolder, 0o755)
			os.Symlink(ownFile, filepath.Join(linkFolder, "PreToolUse"))
			if _, err := st.Install(Target{Agent: a, Scope: User, File: linkFolder}, hook, events, false); err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("install through a link: %v", err)
			}

			os.WriteFile(filepath.Join(folder, "PostToolUse.sh"), own, 0o755) // the user's, beside ours
			ch, err = st.Uninstall(target, "", false)
			if err != nil || len(ch.Events) != len(events) {
				t.Fatalf("uninstall: %v, events %v", err, ch.Events)
			}
			left, _ := os.ReadDir(folder)
			if len(left) != 1 || left[0].Name() != "PostToolUse.sh" {
				t.Errorf("left in the folder: %v, want the user's PostToolUse.sh alone", left)
			}
		})
	}
}

// The guard's script ends the run when the bridge fails: a missing bridge
// and a bridge killed before it answered both print the agent's cancel,
// which it reads before any other line.
func TestTheGuardsScriptCancelsWhenTheBridgeFails(t *testing.T) {
	dir := t.TempDir()
	killed := filepath.Join(dir, "killed-bridge")
	os.WriteFile(killed, []byte("#!/bin/sh\necho '{\"partial'\nkill -9 $$\n"), 0o755)
	for _, bridge := range []string{filepath.Join(dir, "missing-bridge"), killed} {
		script := filepath.Join(dir, "PreToolUse")
		os.WriteFile(script, Script(Command(bridge, "an-agent", []string{"guard"}), true), 0o755)
		out, _ := exec.Command("sh", script).Output()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		last := lines[len(lines)-1]
		if !strings.HasPrefix(last, "HOOK_CONTROL\t{\"cancel\": true") || !strings.Contains(last, "hookwire ended the run") {
			t.Errorf("%s: the script printed %q, want a cancel on its last HOOK_CONTROL line", filepath.Base(bridge), out)
		}
	}
	if _, _, ok := scriptCommand(Script("x", false)); !ok {
		t.Error("a script install wrote is not read back as hookwire's")
	}
	// A file that only looks like hookwire's, with a line of its own after
	// the bridge's, is not taken for it.
	if _, _, ok := scriptCommand(append(Script("x", true), "echo '{}'\n"...)); ok {
		t.Error("a changed script is taken for hookwire's")
	}
}
