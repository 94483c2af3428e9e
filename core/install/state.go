package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hookwire/hookwire/core/internal/filelock"
)

// State is hookwire's own folder, per user, where it keeps for each
// settings file it changes a lock, a record of what install wrote and the
// file as it was before: never beside the user's file, where a repository
// could plant a link at the name, and where it would be committed.
type State struct {
	// Dir is the folder: $XDG_STATE_HOME/hookwire, else
	// $HOME/.local/state/hookwire.
	Dir string
	// made is false for a folder not made yet, read without making it (a
	// dry run, doctor): it holds no record, and nothing is written there.
	made bool
}

// StateDir is hookwire's state folder: $XDG_STATE_HOME/hookwire, else
// $HOME/.local/state/hookwire (a relative XDG_STATE_HOME is ignored, as
// the XDG base directory specification asks).
func StateDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "hookwire"), nil
	}
	home, err := Home()
	if err != nil || home == "" {
		return "", fmt.Errorf("no folder for hookwire's state: set HOME or XDG_STATE_HOME (%v)", err)
	}
	return filepath.Join(home, ".local", "state", "hookwire"), nil
}

// OpenState finds hookwire's state folder, makes it (0700) where create is
// true and it is not there yet, and checks it: a folder, not a link, owned
// by this user, open to no one else. An error names the folder and the fix.
func OpenState(create bool) (*State, error) {
	dir, err := StateDir()
	if err != nil {
		return nil, err
	}
	s := &State{Dir: dir}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if !create {
			return s, nil
		}
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return nil, fmt.Errorf("hookwire's state folder %s cannot be made: %v (set XDG_STATE_HOME to a folder of yours)", dir, err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("hookwire's state folder %s cannot be made: %v (set XDG_STATE_HOME to a folder of yours)", dir, err)
		}
	}
	if err := checkStateDir(dir); err != nil {
		return nil, err
	}
	s.made = true
	return s, nil
}

// checkStateDir is why hookwire does not keep its state in dir, or nil.
func checkStateDir(dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("hookwire's state folder: %v", err)
	}
	switch uid, _, known := owner(info); {
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("hookwire's state folder %s is a symbolic link: hookwire keeps its backups and locks in a folder of its own only; remove the link (rm %s) and run again, or set XDG_STATE_HOME to another folder", dir, dir)
	case !info.IsDir():
		return fmt.Errorf("hookwire's state folder %s is not a folder: remove it and run again, or set XDG_STATE_HOME to another folder", dir)
	case known && uid != euid():
		return fmt.Errorf("hookwire's state folder %s belongs to uid %d, not to you (uid %d): remove it (it holds that user's backups: look first) and run again, or set XDG_STATE_HOME to a folder of yours", dir, uid, euid())
	case known && info.Mode().Perm()&0o077 != 0: // where modes are Unix's
		return fmt.Errorf("hookwire's state folder %s is open to other users (mode %04o): it holds copies of your settings; chmod 700 %s and run again", dir, info.Mode().Perm(), dir)
	}
	return nil
}

// key names what the state folder keeps of a settings file: a hash of its
// absolute path.
func key(file string) string {
	sum := sha256.Sum256([]byte(file))
	return hex.EncodeToString(sum[:12])
}

// openOwn opens a file of the state folder that hookwire made: not through
// a link, a regular file, this user's. A missing file is fs.ErrNotExist.
func (s *State) openOwn(name string, flag int) (*os.File, error) {
	path := filepath.Join(s.Dir, name)
	f, err := openNoFollow(path, flag|nonBlock, 0)
	if errors.Is(err, errLink) {
		return nil, fmt.Errorf("%s is a symbolic link, which hookwire never makes in its state folder: remove it (rm %s) and run again", path, path)
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		uid, _, known := owner(info)
		switch {
		case !info.Mode().IsRegular():
			err = fmt.Errorf("%s is not a regular file (%v), which hookwire never makes in its state folder: remove it and run again", path, info.Mode().Type())
		case known && uid != euid():
			err = fmt.Errorf("%s belongs to uid %d, not to you: remove it and run again", path, uid)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lock takes the lock of the settings file file (its absolute path), held
// until unlock: one install or uninstall at a time reads, changes and
// writes it. It waits lockWait at most for another.
func (s *State) lock(file string) (unlock func(), err error) {
	if !s.made {
		return func() {}, nil
	}
	name := key(file) + ".lock"
	path := filepath.Join(s.Dir, name)
	f, err := openNoFollow(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		f, err = s.openOwn(name, os.O_RDWR)
	}
	if errors.Is(err, errLink) {
		err = fmt.Errorf("%s is a symbolic link, which hookwire never makes in its state folder: remove it (rm %s) and run again", path, path)
	}
	if err != nil {
		return nil, fmt.Errorf("the lock of %s: %w", file, err)
	}
	taken, err := filelock.Wait(f, lockWait, lockPoll)
	if err != nil || !taken {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("the lock of %s (%s): %w", file, path, err)
		}
		return nil, fmt.Errorf("another hookwire has been changing %s for %s (it holds %s): wait for it to end and run again", file, lockWait, path)
	}
	return func() { f.Close() }, nil // closing it gives the lock back
}

// Target is a settings file that install or uninstall changes.
type Target struct {
	Agent *Agent
	Scope Scope
	// File is the file as the agent names it (Agent.Path).
	File string
	// Project is the project's folder, which a file of the project's
	// scopes must not lead out of.
	Project string
}

// located is a target's file by its absolute path, and the file written:
// the same, or the one its links lead to; linked when the file itself is
// a link.
type located struct {
	file, target string
	linked       bool
}

// locate finds the file t's writes go to. A link is followed, so that a
// link stays one and its target is changed; but a file of a project (or a
// folder of its path) must not lead out of the project: a repository that
// holds .claude/settings.json -> ~/.bashrc does not get hookwire to write
// the user's files.
func (t Target) locate() (located, error) {
	file, err := filepath.Abs(t.File)
	if err != nil {
		return located{}, err
	}
	target, err := resolve(file)
	if err != nil {
		return located{}, fmt.Errorf("%s: %v", file, err)
	}
	if t.Scope != User {
		project, err := filepath.Abs(t.Project)
		if err == nil {
			project, err = filepath.EvalSymlinks(project)
		}
		if err != nil {
			return located{}, fmt.Errorf("the project's folder: %v", err)
		}
		if !within(target, project) {
			return located{}, fmt.Errorf("%s leads to %s through a symbolic link, out of the project's folder %s: hookwire writes no file of a project's scope out of the project (a repository could aim it at your own files); remove the link, or install into that file with --scope user", file, target, project)
		}
	}
	info, err := os.Lstat(file)
	return located{file: file, target: target, linked: err == nil && info.Mode()&fs.ModeSymlink != 0}, nil
}

// Install merges the hook into the target's file for each event, as the
// package's Install does, holding the file's lock from the read to the
// write, and writes it (unless dryRun): through a link to its target;
// keeping the file as it was before hookwire's first install in the state
// folder; recording what it wrote, for uninstall.
func (s *State) Install(t Target, hook Hook, events []string, dryRun bool) (Change, error) {
	switch t.Agent.Layout {
	case Executables:
		return s.installScripts(t, hook, events, dryRun)
	case Plugin:
		return s.installPlugin(t, hook, dryRun)
	}
	return s.change(t, dryRun, func(before []byte, _ *record) (Change, error) {
		return install(t.Agent, t.File, before, hook, events)
	})
}

// Uninstall takes out of the target's file the hooks install wrote (the
// commands its record holds, whatever the bridge's name, and those of the
// bridge by its absolute path for the agent), or only command's, under the
// file's lock, and writes it (unless dryRun). Where the file holds exactly
// what hookwire last wrote, and no hook of install's is left, it gets back
// the bytes it had before install (or is removed, if install made it);
// else the entries go, with what install added, and a file that existed is
// never removed.
func (s *State) Uninstall(t Target, command string, dryRun bool) (Change, error) {
	switch t.Agent.Layout {
	case Executables:
		return s.uninstallScripts(t, command, dryRun)
	case Plugin:
		return s.uninstallPlugin(t, command, dryRun)
	}
	return s.uninstallWith(t, dryRun, func(before []byte, r *record) (Change, error) {
		return uninstall(t.Agent, t.File, before, command, r)
	})
}

// uninstallWith makes the change of do, which takes install's entries out
// of the target's file, and gives the file its bytes of before install
// where they are what is left.
func (s *State) uninstallWith(t Target, dryRun bool, do func(before []byte, r *record) (Change, error)) (Change, error) {
	return s.change(t, dryRun, func(before []byte, r *record) (Change, error) {
		ch, err := do(before, r)
		if err != nil || len(ch.Events) == 0 || r == nil {
			return ch, err
		}
		// The backup's bytes come back where they are what the file would
		// be without install's entries: hookwire alone has written the
		// file since, and every entry of install's goes, and no other.
		left := slices.DeleteFunc(slices.Clone(r.Commands), func(c string) bool { return slices.Contains(ch.removed, c) })
		other := slices.ContainsFunc(ch.removed, func(c string) bool { return !slices.Contains(r.Commands, c) })
		if !r.Pristine || sum(before) != r.Written || len(left) > 0 || other {
			return ch, nil
		}
		if r.Created {
			ch.After, ch.Restored = nil, true
			return ch, nil
		}
		original, err := s.backup(r)
		if err != nil {
			ch.Notes = append(ch.Notes, fmt.Sprintf("the backup of %s cannot be read (%v): uninstall takes out the entries alone", t.File, err))
			return ch, nil
		}
		ch.After, ch.Restored = original, true
		return ch, nil
	})
}

// change reads the target's file under its lock, makes the change of do
// and writes it.
func (s *State) change(t Target, dryRun bool, do func(before []byte, r *record) (Change, error)) (Change, error) {
	loc, err := t.locate()
	if err != nil {
		return Change{File: t.File}, err
	}
	unlock := func() {}
	if !dryRun {
		if unlock, err = s.lock(loc.file); err != nil {
			return Change{File: t.File}, err
		}
	}
	defer unlock()
	before, info, err := readTarget(loc.target)
	if err != nil {
		return Change{File: t.File}, err
	}
	r, note, err := s.load(loc.file)
	if err != nil {
		return Change{File: t.File}, err
	}
	ch, err := do(before, r)
	ch.Target, ch.Linked = loc.target, loc.linked
	if note != "" {
		ch.Notes = append(ch.Notes, note)
	}
	if err != nil {
		return ch, err
	}
	if ch.op == opUninstall && ch.After == nil && !ch.Restored && (r == nil || !r.Created) {
		ch.After = ch.rest // a file that existed is not removed
	}
	if r != nil {
		ch.Backup = r.backupPath(s)
	}
	if dryRun || !ch.Changed() {
		return ch, nil
	}
	return ch, s.commit(&ch, loc, info, r)
}

// Write makes the change as Install or Uninstall made it, through the
// user's state folder (OpenState) as State's methods do: under the file's
// lock, if the file holds Before still; a link is written through, as in
// the user's scope. It returns where the file as it was before hookwire's
// first change is kept, "" when there is no such copy.
func (c Change) Write() (backup string, err error) {
	s, err := OpenState(true)
	if err != nil {
		return "", err
	}
	loc, err := Target{Scope: User, File: c.File}.locate()
	if err != nil {
		return "", err
	}
	unlock, err := s.lock(loc.file)
	if err != nil {
		return "", err
	}
	defer unlock()
	before, info, err := readTarget(loc.target)
	if err != nil {
		return "", err
	}
	if !bytes.Equal(before, c.Before) || (before == nil) != (c.Before == nil) {
		return "", fmt.Errorf("%s has changed since it was read: run again", c.File)
	}
	r, _, err := s.load(loc.file)
	if err != nil {
		return "", err
	}
	if c.op == opUninstall && c.After == nil && (r == nil || !r.Created) {
		c.After = c.rest
	}
	c.Backup = r.backupPath(s)
	if !c.Changed() {
		return c.Backup, nil
	}
	err = s.commit(&c, loc, info, r)
	return c.Backup, err
}

// commit writes the change, with its lock held: the backup first (the file
// as it was before hookwire's first change), the record of an install
// before the file (so that what it writes is found even if it stops
// half-way), the file, the record of an uninstall after.
func (s *State) commit(ch *Change, loc located, info fs.FileInfo, r *record) error {
	if !s.made {
		return fmt.Errorf("hookwire's state folder %s is not made", s.Dir)
	}
	if info != nil && !writableByUs(info) {
		name := loc.file
		if loc.linked {
			name = loc.target
		}
		return fmt.Errorf("%s is read-only (mode %04o): hookwire does not replace a file you made read-only; make it writable (chmod u+w %s) and run again, or add the hook by hand", name, info.Mode().Perm(), name)
	}
	continuing := r != nil && sum(ch.Before) == r.Written
	switch ch.op {
	case opInstall:
		old := r
		if r == nil {
			r = &record{Format: recordFormat, File: loc.file, Pristine: true}
		} else {
			r = cloneRecord(r)
			r.Pristine = r.Pristine && continuing
		}
		r.Created = ch.Before == nil || (r.Created && continuing)
		if r.Backup == "" && ch.Before != nil && !r.Created {
			name, err := s.keep(loc.file, ch.Before, info)
			if err != nil {
				return err
			}
			r.Backup, r.BackupSHA256 = name, sum(ch.Before)
			ch.Backup, ch.NewBackup = filepath.Join(s.Dir, name), true
		}
		r.AddedVersion = r.AddedVersion || ch.added.version
		r.AddedHooks = r.AddedHooks || ch.added.hooks
		r.AddedServers = r.AddedServers || ch.added.servers
		r.AddedEnableList = r.AddedEnableList || ch.added.enableList
		r.AddedEnabled = r.AddedEnabled || ch.added.enabled
		for _, e := range ch.added.events {
			if !slices.Contains(r.AddedEvents, e) {
				r.AddedEvents = append(r.AddedEvents, e)
			}
		}
		// A server install replaced is no longer in the file.
		r.Commands = slices.DeleteFunc(r.Commands, func(c string) bool { return slices.Contains(ch.removed, c) })
		if !slices.Contains(r.Commands, ch.command) {
			r.Commands = append(r.Commands, ch.command)
		}
		r.Written = sum(ch.After)
		if err := s.save(r); err != nil {
			return fmt.Errorf("hookwire's record of %s: %w", loc.file, err)
		}
		if err := replaceFile(loc.target, ch.After, info, ch.mode); err != nil {
			if old != nil { // as it was: the file was not written
				s.save(old)
			} else {
				s.forget(loc.file)
			}
			return err
		}
		return nil
	}
	// Uninstall.
	if r == nil && ch.Before != nil {
		name, err := s.keep(loc.file, ch.Before, info)
		if err != nil {
			return err
		}
		ch.Backup, ch.NewBackup = filepath.Join(s.Dir, name), true
	}
	var err error
	if ch.After == nil {
		err = removeFile(loc.target)
	} else {
		err = replaceFile(loc.target, ch.After, info, 0)
	}
	if err != nil || r == nil {
		return err
	}
	r = cloneRecord(r)
	r.Commands = slices.DeleteFunc(r.Commands, func(c string) bool { return slices.Contains(ch.removed, c) })
	if slices.Contains(ch.removed, warmMarker) { // the enabledMcpjsonServers entry went with the warm hooks
		r.AddedEnabled, r.AddedEnableList = false, false
	}
	if len(r.Commands) > 0 {
		r.Pristine = r.Pristine && continuing
		r.Written = sum(ch.After)
		return s.save(r)
	}
	// No hook of install's is left: what hookwire kept of the file goes,
	// the backup too where the file is that backup again.
	if ch.Restored && r.Backup != "" {
		os.Remove(filepath.Join(s.Dir, r.Backup))
		ch.Backup = ""
	}
	return s.forget(loc.file)
}
