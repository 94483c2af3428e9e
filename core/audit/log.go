package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hookwire/hookwire/core/internal/filelock"
	"github.com/hookwire/hookwire/core/internal/nofollow"
	"github.com/hookwire/hookwire/core/runtime"
)

// EnvPath names the log's file; "off" writes none. Unset, it is
// DefaultPath().
const EnvPath = "HOOKWIRE_AUDIT"

// DefaultMaxSize is the size at which a log file is rotated.
const DefaultMaxSize = 32 << 20

// maxLine bounds a record's line, as Verify reads it: each text of a
// record is clipped to maxReason, so that even escaped (six bytes for a
// character such as "<") a record stays well under it.
const (
	maxLine   = 1 << 20
	maxReason = 4 << 10
)

// lockWait bounds the wait for another process appending to the same log.
const lockWait = 10 * time.Second

// batchDelay is how long a batch waits, from its first record, before it
// is written: the call the record is of still has its reply to deliver,
// and the write (two fsyncs and a dozen other system calls) would take
// the CPU from the agent that reads it (a warm mcp_tool call took 0.1 ms
// longer, BENCHMARKS.md, section 8). The records of the calls made in the
// meantime join the batch.
const batchDelay = 2 * time.Millisecond

// DefaultPath is the log of this user: $XDG_STATE_HOME/hookwire/audit.jsonl
// ($HOME/.local/state where XDG_STATE_HOME is not set), or
// %LOCALAPPDATA%\hookwire\audit.jsonl on Windows.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "hookwire", "audit.jsonl"), nil
	}
	if d := os.Getenv("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "hookwire", "audit.jsonl"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for the audit log (%w): set %s to a file, or to off", err, EnvPath)
	}
	return filepath.Join(home, ".local", "state", "hookwire", "audit.jsonl"), nil
}

// PathFromEnv is the log's file as the environment sets it: "" when
// HOOKWIRE_AUDIT is "off".
func PathFromEnv() (string, error) {
	switch p := os.Getenv(EnvPath); p {
	case "off":
		return "", nil
	case "":
		return DefaultPath()
	default:
		return p, nil
	}
}

// Log appends records to an audit log. Appends are queued and written by
// one goroutine, a batch at a time, batchDelay after the batch's first
// record, so that no hook call waits for the disk or shares the CPU with
// it while its reply goes out; Close writes what is queued at once.
// Several processes may append to one log: each batch is written under a
// lock of the log's head file.
type Log struct {
	path    string
	maxSize int64
	log     *slog.Logger

	mu      sync.Mutex
	queue   []Record
	wake    chan struct{}
	closed  bool
	closing chan struct{} // closed by Close: a batch waits no longer
	delay   time.Duration // batchDelay
	done    chan struct{}
	err     error // the first write error, also logged
	written uint64
}

// Open starts a log at path, making its folder (mode 0700) if needed. The
// folder must belong to this user and let no one else in; the files in it
// are opened without following links.
func Open(path string, maxSize int64, log *slog.Logger) (*Log, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if log == nil {
		log = slog.Default()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if err := checkDir(dir); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	l := &Log{path: path, maxSize: maxSize, log: log, wake: make(chan struct{}, 1), closing: make(chan struct{}), delay: batchDelay, done: make(chan struct{})}
	go l.run()
	return l, nil
}

// Path is the log's file.
func (l *Log) Path() string { return l.path }

// Attach makes a runtime append a record of each hook call it makes.
func (l *Log) Attach(opts *runtime.Options, src Source) {
	if l == nil {
		return
	}
	call := func(c runtime.CallRecord) { l.Append(RecordOf(src, c)) }
	if prev := opts.OnCall; prev != nil {
		opts.OnCall = func(c runtime.CallRecord) { prev(c); call(c) }
		return
	}
	opts.OnCall = call
}

// Clip cuts each text of the record longer than 4 KiB (a hook's reason,
// an error, a tool's name as the model wrote it), which no reader of a
// record needs whole, at the start of a character: what is left stays
// UTF-8, as OTLP's strings must be, and a record's line stays well under
// maxLine however its characters are escaped.
func (r *Record) Clip() {
	for _, s := range []*string{&r.Host, &r.Agent, &r.Session, &r.Hook, &r.Method, &r.Tool, &r.Action, &r.Reason, &r.Error, &r.Policy} {
		*s = clip(*s)
	}
}

func clip(s string) string {
	if len(s) <= maxReason {
		return s
	}
	end := maxReason
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}

// Append queues r; Seq, Time and Prev are set as it is written.
func (l *Log) Append(r Record) {
	r.Clip()
	if r.Time == "" {
		r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.queue = append(l.queue, r)
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Close writes the records queued and stops; it returns the first error
// met writing, if any.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.wake)
		close(l.closing)
	}
	l.mu.Unlock()
	<-l.done
	return l.err
}

func (l *Log) run() {
	defer close(l.done)
	for range l.wake {
		wait := time.NewTimer(l.delay)
		select {
		case <-wait.C:
		case <-l.closing:
			wait.Stop()
		}
		l.flush()
	}
	l.flush()
}

// flush writes every record queued.
func (l *Log) flush() {
	l.mu.Lock()
	batch := l.queue
	l.queue = nil
	l.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	if err := l.write(batch); err != nil {
		if l.err == nil {
			l.err = err
		}
		l.log.Error("audit log: records not written", "records", len(batch), "file", l.path, "error", err)
		return
	}
	l.written += uint64(len(batch))
}

// write appends batch under the head's lock: the head says which record
// came last and its hash, and is rewritten once the batch is on disk.
func (l *Log) write(batch []Record) error {
	head, err := nofollow.Open(headPath(l.path), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer head.Close()
	if ok, err := filelock.Wait(head, lockWait, 5*time.Millisecond); err != nil || !ok {
		return errors.Join(fmt.Errorf("%s: locked by another process for %v", head.Name(), lockWait), err)
	}
	defer filelock.Unlock(head)
	last, err := l.last(head)
	if err != nil {
		return err
	}
	if err := l.rotate(); err != nil {
		return err
	}
	f, err := nofollow.Open(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	var buf bytes.Buffer
	for _, r := range batch {
		last.Seq++
		r.Seq, r.Prev = last.Seq, last.Hash
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		last.Hash = hashLine(line)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return writeHead(head, last)
}

// tail is the last record written: its Seq and the hash of its line.
type tail struct {
	Seq  uint64
	Hash string
}

// headPath is the file that holds the log's tail, and its lock.
func headPath(path string) string { return path + ".head" }

// headSize is the length of the head's one line: a sequence number of 20
// digits, a space, a hash of 64 hex digits and a line break. Always the
// same, so that each rewrite covers the one before.
const headSize = 20 + 1 + 64 + 1

func writeHead(head *os.File, t tail) error {
	hash := t.Hash
	if hash == "" {
		hash = string(bytes.Repeat([]byte("0"), 64))
	}
	if _, err := head.WriteAt(fmt.Appendf(nil, "%020d %s\n", t.Seq, hash), 0); err != nil {
		return err
	}
	return head.Sync()
}

// readHead reads the head; ok is false when it is empty (a new log, or a
// head lost).
func readHead(r io.ReaderAt) (t tail, ok bool, err error) {
	b := make([]byte, headSize+1)
	n, err := r.ReadAt(b, 0)
	if err != nil && err != io.EOF {
		return tail{}, false, err
	}
	if n == 0 {
		return tail{}, false, nil
	}
	if n != headSize || b[20] != ' ' || b[headSize-1] != '\n' {
		return tail{}, false, errors.New("the head file is not a sequence number and a hash")
	}
	seq, err := strconv.ParseUint(string(b[:20]), 10, 64)
	if err != nil {
		return tail{}, false, errors.New("the head file is not a sequence number and a hash")
	}
	t = tail{Seq: seq, Hash: string(b[21 : headSize-1])}
	if seq == 0 {
		t.Hash = ""
	}
	return t, true, nil
}

// last is the record the next one follows: the log's last, where a writer
// stopped after writing records and before noting them in the head (a
// killed process), else the head's. A log that ends before the head's
// record was cut short: the chain goes on from the head, so that verify
// shows what is missing.
func (l *Log) last(head *os.File) (tail, error) {
	t, ok, err := readHead(head)
	if err != nil {
		return tail{}, fmt.Errorf("%s: %w; move it and the log aside to start a new log", head.Name(), err)
	}
	written, err := lastOf(l.path)
	if err == nil && !ok && written.Seq == 0 {
		// No head and no record: a file of the user's, which a variable set
		// by a project (HOOKWIRE_AUDIT=~/.bashrc) must not make us append to.
		if info, serr := os.Lstat(l.path); serr == nil && info.Size() > 0 {
			return tail{}, fmt.Errorf("%s holds no audit record and has no head beside it: it is not an audit log, and nothing is appended to it", l.path)
		}
	}
	if err != nil || !ok || written.Seq > t.Seq {
		return written, err
	}
	return t, nil
}

// lastOf is the last record of a log file, read from its end: the zero
// tail when the file is missing or holds none.
func lastOf(path string) (tail, error) {
	f, err := nofollow.Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return tail{}, nil
	}
	if err != nil {
		return tail{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return tail{}, err
	}
	// The last line is most often within the last few kilobytes; it is
	// always within the last maxLine bytes and its line break.
	size := info.Size()
	for _, window := range []int64{4 << 10, maxLine + 1} {
		from := max(0, size-window)
		buf := make([]byte, size-from)
		if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
			return tail{}, err
		}
		lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
		// The first line of a window that does not start the file may be a part.
		for i := len(lines) - 1; i >= 0 && (i > 0 || from == 0); i-- {
			var r Record
			if json.Unmarshal(lines[i], &r) == nil && r.Seq > 0 {
				return tail{Seq: r.Seq, Hash: hashLine(lines[i])}, nil
			}
		}
		if from == 0 {
			break
		}
	}
	return tail{}, nil
}

// rotate moves the log aside, named after its first record's number,
// once it has reached its size: the new file's first record names the
// hash of the old file's last, so that the chain runs on.
func (l *Log) rotate() error {
	info, err := os.Lstat(l.path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && info.Size() < l.maxSize) {
		return nil
	}
	if err != nil {
		return err
	}
	first, err := firstSeq(l.path)
	if err != nil {
		return err
	}
	return os.Rename(l.path, rotatedName(l.path, first))
}

// rotatedName is the name of a rotated file whose first record is first:
// the number in 20 digits, so that names sort as the records do.
func rotatedName(path string, first uint64) string { return fmt.Sprintf("%s.%020d", path, first) }

func firstSeq(path string) (uint64, error) {
	f, err := nofollow.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxLine)
	if !sc.Scan() {
		return 0, errors.Join(errors.New("the log has no first record to name its rotated file after"), sc.Err())
	}
	var r Record
	if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
		return 0, fmt.Errorf("%s: its first line is not a record: %w", path, err)
	}
	return r.Seq, nil
}

// FromEnv opens the log the environment names (PathFromEnv): nil when
// HOOKWIRE_AUDIT is off, or when the log cannot be opened, which is
// logged. A host runs its hooks either way: the log records decisions,
// it does not make them.
func FromEnv(log *slog.Logger) *Log {
	path, err := PathFromEnv()
	if err == nil && path == "" {
		return nil
	}
	var l *Log
	if err == nil {
		l, err = Open(path, 0, log)
	}
	if err != nil {
		if log == nil {
			log = slog.Default()
		}
		log.Warn("no audit log of hook decisions: "+err.Error(), "fix", "set "+EnvPath+" to a file in a folder of yours, or to off")
		return nil
	}
	return l
}
