package wiretap

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/wire"
)

// recording records a session with the fixture hook: hello, two
// before_tool calls in flight together, a notification, then approve_tool.
func recording(t *testing.T) []Record {
	t.Helper()
	var rec bytes.Buffer
	h, done := runTap(t, &Tap{Cmd: wire.Command{Argv: []string{hook}}, Record: NewWriter(&rec)})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"gate","version":1,"modes":["tool","approve"]}}`)
	h.read(t)
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"exec","arguments":{"command":"ls"}}}`)
	h.send(t, `{"jsonrpc":"2.0","id":3,"method":"hook.before_tool","params":{"tool":"read_file","arguments":{"path":"a"}}}`)
	h.read(t)
	h.read(t)
	h.send(t, `{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"agent.tool.exec_start"}}`)
	h.send(t, `{"jsonrpc":"2.0","id":4,"method":"hook.approve_tool","params":{"tool":"exec","arguments":{"command":"ls"}}}`)
	h.read(t)
	h.in.Close()
	<-done
	recs, err := Read(&rec)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestReplayOfTheRecordedHookMatchesEveryCall(t *testing.T) {
	report, err := Replay(context.Background(), recording(t), wire.Command{Argv: []string{hook}}, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	report.WriteText(&text)
	want := "replay of hook gate against " + hook + `
  MATCH  hook.before_tool exec (id 2)
  MATCH  hook.before_tool read_file (id 3)
  MATCH  hook.approve_tool exec (id 4)
3 calls: 3 match, 0 differ
`
	if !report.OK() || text.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", text.String(), want)
	}
}

func TestReplayNamesTheCallAndTheMemberThatDiffer(t *testing.T) {
	// -fault no-reason denies every tool call where the recorded hook continued.
	report, err := Replay(context.Background(), recording(t), wire.Command{Argv: []string{hook, "-fault", "no-reason"}}, ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if report.OK() {
		t.Fatal("a hook that decides otherwise matched")
	}
	var text bytes.Buffer
	report.WriteText(&text)
	for _, want := range []string{
		"  DIFF   hook.before_tool exec (id 2)\n           /result/action: recorded \"continue\", replayed \"deny_tool\"\n",
		"  DIFF   hook.before_tool read_file (id 3)\n",
		"  MATCH  hook.approve_tool exec (id 4)\n",
		"3 calls: 1 match, 2 differ\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text.String())
		}
	}
	// Ignoring the member makes them match.
	report, err = Replay(context.Background(), recording(t), wire.Command{Argv: []string{hook, "-fault", "no-reason"}}, ReplayOptions{Ignore: []string{"/result/action"}})
	if err != nil || !report.OK() {
		t.Errorf("with /result/action ignored: %v %+v", err, report)
	}
}

// The two before_tool calls were in flight together in the recording: the
// replay sends both before either reply, and approve_tool only after both.
func TestReplayKeepsTheRecordedConcurrency(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	trace := func(hook string, out bool, line []byte) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(line, &m)
		dir := "<"
		if out {
			dir = ">"
		}
		mu.Lock()
		lines = append(lines, dir+string(m.ID))
		mu.Unlock()
	}
	if _, err := Replay(context.Background(), recording(t), wire.Command{Argv: []string{hook}}, ReplayOptions{Trace: trace}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, " ")
	// hello, then 2 and 3 (in either order) out before any reply, then the
	// notification (no id) and 4 after both replies.
	if len(lines) != 9 || got[:5] != ">1 <1" || !strings.HasPrefix(got[6:], ">2 >3") && !strings.HasPrefix(got[6:], ">3 >2") ||
		!strings.HasSuffix(got, "> >4 <4") {
		t.Errorf("wire order %s", got)
	}
}

func TestReplayRefusesARecordingItCannotPlay(t *testing.T) {
	hello := `{"hook":"a","dir":"send","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"a","version":1}}}`
	call := `{"hook":"a","dir":"send","message":{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"x"}}}`
	other := `{"hook":"b","dir":"send","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"b","version":1}}}`
	for _, c := range []struct {
		lines []string
		hook  string
		want  string
	}{
		{[]string{call}, "", "record 1: hook.before_tool before hook.hello"},
		{[]string{}, "", "the recording holds no hook.hello"},
		{[]string{hello, call, hello}, "", "record 3: a second hook.hello: the hook was restarted"},
		{[]string{hello, other}, "", "the recording holds several hooks (a, b): say which"},
		{[]string{hello}, "c", "the recording holds no hook c"},
	} {
		recs, err := Read(strings.NewReader(strings.Join(c.lines, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Replay(context.Background(), recs, wire.Command{Argv: []string{hook}}, ReplayOptions{Hook: c.hook})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.lines, err, c.want)
		}
	}
}

func TestAMissingMemberAndAnEmptyOneAreTheSameToAHost(t *testing.T) {
	var diffs []Diff
	rec := map[string]any{"result": map[string]any{"action": "respond", "result": map[string]any{"for_llm": "x", "for_user": ""}}}
	rep := map[string]any{"result": map[string]any{"action": "respond", "result": map[string]any{"for_llm": "x", "silent": false}}}
	diff("", rec, rep, newIgnore(nil), &diffs)
	if len(diffs) != 0 {
		t.Errorf("diffs %+v", diffs)
	}
	rep["result"].(map[string]any)["reason"] = "new"
	diff("", rec, rep, newIgnore(nil), &diffs)
	if len(diffs) != 1 || diffs[0].Path != "/result/reason" || diffs[0].Recorded != nil || string(diffs[0].Replayed) != `"new"` {
		t.Errorf("diffs %+v", diffs)
	}
	diffs = nil
	diff("", rec, rep, newIgnore([]string{"reason"}), &diffs)
	if len(diffs) != 0 {
		t.Errorf("reason ignored by name: diffs %+v", diffs)
	}
}

// A hook that crashes mid-replay fails the calls it leaves unanswered,
// each with how it ended; the replay itself goes to its end.
func TestAHookThatCrashesMidReplayFailsTheCallsItLeaves(t *testing.T) {
	crasher := filepath.Join(t.TempDir(), "fixture")
	if out, err := exec.Command("go", "build", "-o", crasher, "../runtime/testdata/fixture").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	report, err := Replay(context.Background(), recording(t), wire.Command{Argv: []string{crasher, "-crash", "hook.before_tool"}}, ReplayOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if report.OK() || len(report.Calls) != 3 {
		t.Fatalf("report %+v", report)
	}
	for _, c := range report.Calls {
		if c.Match || !strings.Contains(c.Error, "hook exited with status 3") && !strings.Contains(c.Error, "connection closed") {
			t.Errorf("%s: match %v, error %q", c, c.Match, c.Error)
		}
	}
}
