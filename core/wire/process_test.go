package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"

	"github.com/hookwire/hookwire/core/protocol"
)

func TestHandshakeSucceedsAndAnnouncesModes(t *testing.T) {
	log, _ := testLogger()
	rec := filepath.Join(t.TempDir(), "received")
	p, err := Spawn(context.Background(), Command{
		Name: "gate", Argv: fixture("-name", "python-review-gate", "-record", rec),
		Modes: []protocol.Mode{protocol.ModeObserve, protocol.ModeTool},
	}, quick(log))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := p.Hello(); !got.OK || got.Name == nil || *got.Name != "python-review-gate" {
		t.Errorf("hello result = %+v", got)
	}
	p.Close()
	lines := testbin.Lines(t, rec)
	want := `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"gate","version":1,"modes":["observe","tool"]}}`
	if len(lines) != 1 || lines[0] != want {
		t.Errorf("the hook received %q, want exactly %q", lines, want)
	}
}

func TestHandshakeFailures(t *testing.T) {
	for _, tc := range []struct {
		hello string
		want  []string
	}{
		{"error", []string{"hook fx", "hook.hello", "not today"}},
		{"refuse", []string{"hook fx", "ok: false"}},
		{"hang", []string{"hook fx: hook.hello: no reply within 300ms"}},
		{"exit", []string{"hook fx", "exited with status 2", "giving up before hello"}},
	} {
		t.Run(tc.hello, func(t *testing.T) {
			log, _ := testLogger()
			opts := quick(log)
			opts.HelloTimeout = 300 * time.Millisecond
			_, err := Spawn(context.Background(), Command{Name: "fx", Argv: fixture("-hello", tc.hello)}, opts)
			if err == nil {
				t.Fatal("Spawn succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestSpawnReportsAMissingProgram(t *testing.T) {
	_, err := Spawn(context.Background(), Command{Name: "ghost", Argv: []string{"/nonexistent/hook"}}, ProcessOptions{})
	if err == nil || !strings.Contains(err.Error(), "hook ghost") || !strings.Contains(err.Error(), "/nonexistent/hook") {
		t.Fatalf("err = %v", err)
	}
}

func TestDirAndEnvReachTheHook(t *testing.T) {
	dir := t.TempDir()
	script := `read line; echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true,\"name\":\"$(pwd)|$GREETING\"}}"; cat >/dev/null`
	p, err := Spawn(context.Background(), Command{
		Name: "env", Argv: []string{"/bin/sh", "-c", script}, Dir: dir, Env: map[string]string{"GREETING": "hi"},
	}, quick(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	real, _ := filepath.EvalSymlinks(dir)
	if got, want := *p.Hello().Name, real+"|hi"; got != want {
		t.Errorf("the hook ran in %q, want %q", got, want)
	}
}

func TestManyCallsInFlightAreMatchedByID(t *testing.T) {
	p := spawn(t, quick(nil), "-echo")
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			// Earlier calls wait longer, so replies come back in reverse order.
			args := map[string]any{"text": "call " + strconv.Itoa(i), "delay_ms": (n - i) * 10}
			raw, err := p.Call(context.Background(), protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t", Arguments: args})
			if err != nil {
				errs <- err
				return
			}
			var got protocol.Respond
			if err := protocol.Unmarshal(raw, &got); err != nil || got.Result.ForLLM != args["text"] {
				errs <- fmt.Errorf("call %d got %s", i, raw)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestGarbageOnStdoutIsLoggedAndSkipped(t *testing.T) {
	log, logs := testLogger()
	p := spawn(t, quick(log), "-garbage")
	if _, err := p.Call(context.Background(), protocol.MethodBeforeLLM, protocol.BeforeLLMParams{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	logs.WaitFor(t, "skipped a line of stdout that is not JSON")
	logs.WaitFor(t, `line="this is not JSON"`)
}

func TestAFloodOfGarbageIsCountedNotLoggedLineByLine(t *testing.T) {
	log, logs := testLogger()
	flood := strings.Repeat("garbage\n", 2500)
	c := NewConn(strings.NewReader(flood), io.Discard, ConnOptions{Logger: log})
	<-c.Done()
	if got := strings.Count(logs.String(), "skipped a line of stdout that is not JSON"); got != 10 {
		t.Errorf("%d lines logged one by one, want 10", got)
	}
	for _, want := range []string{"skipped=11", "skipped=1000", "skipped=2000"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not count %s", want)
		}
	}
}

func TestReplyWithUnknownIDIsLogged(t *testing.T) {
	log, logs := testLogger()
	p := spawn(t, quick(log), "-wrongid")
	raw, err := p.Call(context.Background(), protocol.MethodBeforeLLM, protocol.BeforeLLMParams{Model: "m"})
	if err != nil || string(raw) != `{"action":"continue"}` {
		t.Fatalf("call = %s, %v", raw, err)
	}
	logs.WaitFor(t, "dropped a reply with an unknown id")
	logs.WaitFor(t, "id=1002")
}

func TestTenMiBReplyLineIsRead(t *testing.T) {
	p := spawn(t, quick(nil), "-echo")
	const size = 10 << 20
	raw, err := p.Call(context.Background(), protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t", Arguments: map[string]any{"size": size}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := protocol.DecodeResult(protocol.MethodBeforeTool, raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.(protocol.Respond).Result.ForLLM); got != size {
		t.Errorf("for_llm has %d bytes, want %d", got, size)
	}
}

func TestLineOverTheLimitFailsItsCallOnly(t *testing.T) {
	opts := quick(nil)
	opts.Conn.MaxLineSize = 1 << 20
	p := spawn(t, opts, "-echo")
	_, err := p.Call(context.Background(), protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t", Arguments: map[string]any{"size": 2 << 20}})
	var tooLong *LineTooLongError
	if !errors.As(err, &tooLong) || tooLong.Limit != 1<<20 || tooLong.Size <= 2<<20 {
		t.Fatalf("err = %v, want a LineTooLongError", err)
	}
	if !strings.Contains(err.Error(), "over the limit of 1048576 bytes") {
		t.Errorf("error %q does not say what the limit is", err)
	}
	raw, err := p.Call(context.Background(), protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t", Arguments: map[string]any{"text": "still here"}})
	if err != nil || !strings.Contains(string(raw), "still here") {
		t.Fatalf("the next call got %s, %v", raw, err)
	}
}

func TestCrashFailsCallsInFlightAtOnce(t *testing.T) {
	log, _ := testLogger()
	p := spawn(t, quick(log), "-crash", protocol.MethodBeforeTool, "-log", "about to serve")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := p.Call(ctx, protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t"})
	if err == nil || !strings.Contains(err.Error(), "hook exited with status 3") {
		t.Fatalf("err = %v, want the exit status", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the call waited for its deadline")
	}
	<-p.Done()
	if _, err := p.Call(context.Background(), protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "t"}); err == nil {
		t.Fatal("a call on a dead connection succeeded")
	}
}

func TestStderrIsLoggedUnderTheHookName(t *testing.T) {
	log, logs := testLogger()
	spawn(t, quick(log), "-log", "warming up the weather")
	logs.WaitFor(t, `msg="warming up the weather" hook=fx stream=stderr`)
}

func TestCloseStopsAHookThatIgnoresSIGTERM(t *testing.T) {
	log, logs := testLogger()
	p := spawn(t, quick(log), "-ignore-term")
	pid := p.Pid()
	p.Close()
	if left := groupMembers(pid); len(left) > 0 {
		t.Fatalf("hook %d still runs: %v", pid, left)
	}
	logs.WaitFor(t, "did not exit after SIGTERM; sending SIGKILL")
}

func TestCloseStopsTheChildrenAHookForked(t *testing.T) {
	for _, flags := range [][]string{{}, {"-ignore-term"}} {
		t.Run(strings.Join(append([]string{"child"}, flags...), ""), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child.pid")
			p := spawn(t, quick(nil), append([]string{"-fork", pidFile}, flags...)...)
			child, err := strconv.Atoi(string(waitFile(t, pidFile)))
			if err != nil {
				t.Fatal(err)
			}
			if members := groupMembers(p.Pid()); len(members) != 2 {
				t.Fatalf("group %d has %v, want the hook and its child", p.Pid(), members)
			}
			p.Close()
			if members := groupMembers(p.Pid()); len(members) > 0 {
				t.Fatalf("group %d still has %v (child %d)", p.Pid(), members, child)
			}
		})
	}
}

func TestCloseLetsAHookFinishOnEndOfInput(t *testing.T) {
	log, logs := testLogger()
	p := spawn(t, quick(log))
	p.Close()
	if !strings.Contains(p.Err().Error(), "exited with status 0") {
		t.Errorf("conn ended with %v, want a clean exit", p.Err())
	}
	if strings.Contains(logs.String(), "SIGTERM") {
		t.Errorf("a well-behaved hook got a signal:\n%s", logs)
	}
}

func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(b) > 0 {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSpawnAndCloseLeaveNoFileDescriptorOpen(t *testing.T) {
	count := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	before := count()
	for range 5 {
		p, err := Spawn(context.Background(), Command{Name: "fx", Argv: fixture("-log", "bye")}, quick(nil))
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	if after := count(); after > before {
		t.Errorf("%d file descriptors open before, %d after five hooks came and went", before, after)
	}
}
