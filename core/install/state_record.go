// The records of the state folder: what hookwire wrote into each settings
// file, its backup, and the command lines install recorded.

package install

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"
)

// record is what the state folder keeps of one settings file: what
// hookwire's installs wrote there since the first, so that uninstall takes
// that out and no more.
type record struct {
	// Format is recordFormat.
	Format int `json:"format"`
	// File is the settings file, by its absolute path.
	File string `json:"file"`
	// Created says that install made the file, and only hookwire has
	// written it since: uninstall removes it when nothing is left.
	Created bool `json:"created"`
	// Backup is the file's name in the state folder that holds the
	// settings file as it was before the first install (none when
	// Created), with its mode; BackupSHA256 its bytes' hash.
	Backup       string `json:"backup,omitempty"`
	BackupSHA256 string `json:"backup_sha256,omitempty"`
	// AddedVersion, AddedHooks and AddedEvents are what install added
	// besides its entries: Flat's "version": 1, the "hooks" section, the
	// events' lists.
	AddedVersion bool     `json:"added_version,omitempty"`
	AddedHooks   bool     `json:"added_hooks,omitempty"`
	AddedEvents  []string `json:"added_events,omitempty"`
	// AddedServers, AddedEnableList and AddedEnabled are what the warm
	// form's install added: the mcpServers object of a file of MCP
	// servers; the settings' list of the project's servers the agent
	// starts, and hookwire's server in it.
	AddedServers    bool `json:"added_servers,omitempty"`
	AddedEnableList bool `json:"added_enable_list,omitempty"`
	AddedEnabled    bool `json:"added_enabled,omitempty"`
	// Commands are the command lines install wrote, whatever the bridge's
	// name: in a file of MCP servers, hookwire's server's; the warm form's
	// mcp_tool hooks are warmMarker.
	Commands []string `json:"commands"`
	// Written is the hash of the bytes hookwire wrote last.
	Written string `json:"written_sha256"`
	// Pristine says that only hookwire has written the file since the
	// backup: uninstall may then give the backup's bytes back.
	Pristine bool `json:"pristine"`
}

const recordFormat = 1

var (
	hashPattern   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	backupPattern = regexp.MustCompile(`^[0-9a-f]{24}\.[0-9]+\.backup$`)
)

// sum is the hash of data, with "absent" for a file that does not exist.
func sum(data []byte) string {
	if data == nil {
		return "absent"
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// check says what is wrong with a record read for file.
func (r *record) check(file string) error {
	switch {
	case r.Format != recordFormat:
		return fmt.Errorf("format %d, not %d", r.Format, recordFormat)
	case r.File != file:
		return fmt.Errorf("it is the record of %s", r.File)
	case r.Written != "absent" && !hashPattern.MatchString(r.Written):
		return errors.New("no hash of the bytes written")
	case r.Backup != "" && (!backupPattern.MatchString(r.Backup) || !hashPattern.MatchString(r.BackupSHA256)):
		return fmt.Errorf("a backup named %q", r.Backup)
	case r.Pristine && !r.Created && r.Backup == "":
		return errors.New("no backup of a file that existed")
	}
	return nil
}

// load reads the record of file. A missing one is nil; a damaged one is
// nil too, with why (uninstall then takes out the entries alone, and
// removes no file); one that is not hookwire's own file is an error.
func (s *State) load(file string) (*record, string, error) {
	if !s.made {
		return nil, "", nil
	}
	name := key(file) + ".record"
	f, err := s.openOwn(name, os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize))
	if err != nil {
		return nil, "", err
	}
	var r record
	err = json.Unmarshal(data, &r)
	if err == nil {
		err = r.check(file)
	}
	if err != nil {
		return nil, fmt.Sprintf("hookwire's record of %s (%s) is damaged (%v): uninstall takes out the entries alone, and removes no file", file, filepath.Join(s.Dir, name), err), nil
	}
	return &r, "", nil
}

// save writes the record of its file, through a new file renamed over the
// old.
func (s *State) save(r *record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeNew(s.Dir, key(r.File)+".record", ".", append(data, '\n'), 0o600, nil, false)
}

// forget removes the record of file.
func (s *State) forget(file string) error {
	err := os.Remove(filepath.Join(s.Dir, key(file)+".record"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(s.Dir)
}

// keep writes a backup of file's bytes into the state folder, with the
// mode of was, under a name of its own (no backup is ever overwritten),
// and returns that name.
func (s *State) keep(file string, data []byte, was fs.FileInfo) (string, error) {
	name := fmt.Sprintf("%s.%d.backup", key(file), time.Now().UnixNano())
	if err := writeNew(s.Dir, name, ".", data, 0o600, was, false); err != nil { // hookwire's own file: the user's mode, not their owner
		return "", fmt.Errorf("the backup of %s in %s: %w", file, s.Dir, err)
	}
	return name, nil
}

// backup reads the backup r names, checked against its hash.
func (s *State) backup(r *record) ([]byte, error) {
	f, err := s.openOwn(r.Backup, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if sum(data) != r.BackupSHA256 {
		return nil, fmt.Errorf("%s does not hold what hookwire kept", filepath.Join(s.Dir, r.Backup))
	}
	return data, nil
}

// backupPath is the backup's path, "" when there is none.
func (r *record) backupPath(s *State) string {
	if r == nil || r.Backup == "" {
		return ""
	}
	return filepath.Join(s.Dir, r.Backup)
}

func cloneRecord(r *record) *record {
	c := *r
	c.AddedEvents = slices.Clone(r.AddedEvents)
	c.Commands = slices.Clone(r.Commands)
	return &c
}

// recorded are the command lines install recorded, in the files
// noteRecorded has read: ParseCommand reads each as a bridge's, whatever
// the bridge's name (hookwire-bridge-0.1.0-linux-amd64, named with
// --bridge). Each is a line hookwire wrote, wherever it is found.
var recorded struct {
	sync.Mutex
	lines map[string]bool
}

// noteRecorded reads the record of the settings file file, if hookwire's
// state folder has one, so that ParseCommand knows the lines install wrote
// there.
func noteRecorded(file string) {
	s, err := OpenState(false)
	if err != nil {
		return
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return
	}
	r, _, _ := s.load(abs)
	if r == nil {
		return
	}
	recorded.Lock()
	defer recorded.Unlock()
	if recorded.lines == nil {
		recorded.lines = map[string]bool{}
	}
	for _, c := range r.Commands {
		recorded.lines[c] = true
	}
}

// isRecorded says whether install recorded line.
func isRecorded(line string) bool {
	recorded.Lock()
	defer recorded.Unlock()
	return recorded.lines[line]
}
