package wiretap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/wire"
)

// host is the host's side of a tap: what it writes, and the lines it reads.
type host struct {
	in    *io.PipeWriter
	lines chan string
}

// runTap runs a tap of argv; done gets its exit.
func runTap(t *testing.T, tap *Tap) (*host, <-chan *os.ProcessState) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &host{in: inW, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	done := make(chan *os.ProcessState, 1)
	go func() {
		state, err := tap.Run(inR, outW)
		if err != nil {
			t.Error(err)
		}
		done <- state
	}()
	t.Cleanup(func() { inW.Close() })
	return h, done
}

func (h *host) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (h *host) read(t *testing.T) string {
	t.Helper()
	select {
	case line := <-h.lines:
		return line
	case <-time.After(5 * time.Second):
		t.Fatal("no line from the tap")
		return ""
	}
}

func TestTapPassesEveryLineUnchangedAndRecordsEachWithItsLatency(t *testing.T) {
	var rec bytes.Buffer
	var live bytes.Buffer
	h, done := runTap(t, &Tap{Cmd: wire.Command{Argv: []string{hook}}, Record: NewWriter(&rec), Trace: Live(&live, false)})
	sent := []string{
		`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"gate","version":1,"modes":["tool"]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"exec","arguments":{"command":"ls"}}}`,
		`{ "jsonrpc" : "2.0", "method" : "hook.runtime_event", "params" : {"kind":"agent.turn.start"} }`,
	}
	var got []string
	for _, line := range sent[:2] {
		h.send(t, line)
		got = append(got, h.read(t))
	}
	h.send(t, sent[2])
	h.in.Close() // the host is done: the hook's stdin closes, it exits, so does the tap
	if state := <-done; state == nil || state.ExitCode() != 0 {
		t.Fatalf("tap exited %v", state)
	}
	if !strings.Contains(got[0], `"name":"fixture"`) || !strings.Contains(got[1], `"continue"`) {
		t.Errorf("the host read %q", got)
	}

	recs, err := Read(&rec)
	if err != nil || len(recs) != 5 {
		t.Fatalf("recording: %v, %d records:\n%s", err, len(recs), rec.String())
	}
	order := []struct {
		dir, line string
	}{{Send, sent[0]}, {Recv, got[0]}, {Send, sent[1]}, {Recv, got[1]}, {Send, sent[2]}}
	for i, r := range recs {
		if r.Dir != order[i].dir || string(r.Message) != order[i].line || r.Hook != "gate" || r.Time.IsZero() {
			t.Errorf("record %d: %+v, want %s %s from hook gate", i, r, order[i].dir, order[i].line)
		}
		if (r.Dir == Recv) != (r.Latency > 0) {
			t.Errorf("record %d: latency %v; replies have one, nothing else does", i, r.Latency)
		}
	}
	if !strings.HasPrefix(live.String(), "[gate] > "+sent[0]+"\n[gate] < "+got[0]+"\n") {
		t.Errorf("live trace:\n%s", live.String())
	}
}

func TestTapPassesSignalsAndTheHooksEndThrough(t *testing.T) {
	signals := make(chan os.Signal, 1)
	h, done := runTap(t, &Tap{Cmd: wire.Command{Argv: []string{hook, "-fault", "linger"}}, Signals: signals})
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"x","version":1}}`)
	h.read(t)
	h.in.Close() // the hook lingers after its stdin closes
	select {
	case <-done:
		t.Fatal("the tap ended while its hook still runs")
	case <-time.After(200 * time.Millisecond):
	}
	signals <- syscall.SIGTERM
	state := <-done
	if ws := state.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("tap ended with %v, want the hook's death by SIGTERM", state)
	}
	if _, open := <-h.lines; open {
		t.Error("the host's side is still open after the hook ended")
	}
}

func TestAHookThatExitsEndsTheTapWithItsStatus(t *testing.T) {
	// -fault exit-on-bad exits with status 1 on a line that is not JSON.
	h, done := runTap(t, &Tap{Cmd: wire.Command{Argv: []string{hook, "-fault", "exit-on-bad"}}, Stderr: io.Discard})
	h.send(t, "garbage")
	select {
	case state := <-done:
		if state.ExitCode() == 0 {
			t.Errorf("tap exited %v, want the hook's failure", state)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tap outlived its hook")
	}
}

type brokenDisk struct{}

func (brokenDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A recording that cannot be written does not stop the lines: the host
// and the hook go on, and the tap says so once the hook is done.
func TestARecordingThatFailsDoesNotStopTheWire(t *testing.T) {
	inR, inW := io.Pipe()
	var out bytes.Buffer
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"x","version":1}}`+"\n")
		inW.Close()
	}()
	state, err := (&Tap{Cmd: wire.Command{Argv: []string{hook}}, Record: NewWriter(brokenDisk{})}).Run(inR, &out)
	if state == nil || state.ExitCode() != 0 || !strings.Contains(out.String(), `"name":"fixture"`) {
		t.Errorf("exit %v, the host read %q", state, out.String())
	}
	if err == nil || err.Error() != "recording: no space left on device" {
		t.Errorf("error %v", err)
	}
}
