//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package hookwire

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// What a host can throw at a hook process: the tests below run the
// minimal hook as a real child process, as a host does.

func init() {
	// minimal denies rm -rf, echoes before_llm as a modify and never
	// answers an after_llm: what a guard, a prompt rewriter and a stuck
	// handler look like to their host.
	processHooks["minimal"] = func() *Hook {
		h := New("minimal")
		h.OnBeforeTool(func(_ context.Context, call BeforeToolParams) (BeforeToolResult, error) {
			cmd, _ := call.Arguments["command"].(string)
			if text, _ := call.Arguments["text"].(string); strings.Contains(cmd+text, "rm -rf") {
				return DenyTool{Reason: "dangerous command"}, nil
			}
			return Continue{}, nil
		})
		h.OnBeforeLLM(func(_ context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
			return req.Modify(), nil
		})
		h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) {
			fmt.Fprintln(os.Stderr, "stuck")
			select {}
		})
		return h
	}
}

// reply reads reply lines until the one with id, and returns it with the
// lines before it.
func (p *hookProcess) replyTo(id string) (wireReply, []wireReply) {
	p.t.Helper()
	var before []wireReply
	for {
		line := make(chan string, 1)
		go func() {
			l, _ := p.stdout.ReadString('\n')
			line <- l
		}()
		var l string
		select {
		case l = <-line:
		case <-time.After(time.Minute):
			p.t.Fatalf("no reply to id %s; stderr:\n%s", id, p.stderr)
		}
		var r wireReply
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" || (r.Result == nil) == (r.Error == nil) {
			p.t.Fatalf("not a JSON-RPC reply: %q (stderr:\n%s)", l, p.stderr)
		}
		if string(r.ID) == id {
			return r, before
		}
		before = append(before, r)
	}
}

// closeStdin closes the hook's stdin and waits for it to exit: within a
// second, and leaving no process of its group behind.
func (p *hookProcess) closeStdinAndWait() {
	p.t.Helper()
	if err := p.stdin.Close(); err != nil {
		p.t.Fatal(err)
	}
	closed := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		if took := time.Since(closed); took > time.Second {
			p.t.Errorf("the hook exited %v after stdin closed, want within 1s", took)
		}
		if err != nil {
			p.t.Errorf("the hook exited with %v; stderr:\n%s", err, p.stderr)
		}
	case <-time.After(time.Minute):
		p.t.Fatalf("the hook did not exit after stdin closed; stderr:\n%s", p.stderr)
	}
	out, err := exec.Command("ps", "-A", "-o", "pgid=").Output()
	if err != nil {
		p.t.Fatal(err)
	}
	for _, f := range strings.Fields(string(out)) {
		if pgid, _ := strconv.Atoi(f); pgid == p.cmd.Process.Pid {
			p.t.Errorf("a process of the hook's group %d is left behind", pgid)
		}
	}
}

func TestEveryMalformedLineIsAnsweredWithAnErrorOrIgnoredAndTheNextRequestIsAnswered(t *testing.T) {
	p := startHook(t, "minimal")
	for i, line := range malformedLines() {
		p.send(line)
		next := strconv.Quote(fmt.Sprint("next-", i))
		p.send(`{"jsonrpc":"2.0","id":` + next + `,"method":"hook.before_tool","params":{"tool":"ls","arguments":{}}}`)
		r, before := p.replyTo(next)
		if string(r.Result) != `{"action":"continue"}` {
			t.Errorf("after %.80q, the next request got %+v", line, r)
		}
		for _, b := range before {
			// JSON that only looks odd is read as encoding/json reads it: a
			// number id as it came, a member named twice as its last value.
			if b.Error == nil && !(json.Valid([]byte(line)) && utf8.ValidString(line)) {
				t.Errorf("%.80q got a result: %s", line, b.Result)
			}
		}
	}
	p.closeStdinAndWait()
}

func TestARequestIsAnsweredWhateverTheDepthOfItsArguments(t *testing.T) {
	p := startHook(t, "minimal")
	for _, depth := range []int{1200, 100000} {
		args := `{"command":"rm -rf /","nested":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
		id := strconv.Itoa(depth)
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"hook.before_tool","params":{"tool":"shell","arguments":` + args + `}}`)
		r, before := p.replyTo(id)
		if len(before) > 0 {
			t.Errorf("replies nobody asked for: %+v", before)
		}
		switch {
		case depth <= maxDepth && string(r.Result) != `{"action":"deny_tool","reason":"dangerous command"}`:
			t.Errorf("depth %d: got %s %+v, want the guard's denial", depth, r.Result, r.Error)
		case depth > maxDepth && (r.Error == nil || r.Error.Code != CodeInvalidParams):
			t.Errorf("depth %d: got %s %+v, want invalid params", depth, r.Result, r.Error)
		}
	}
	p.closeStdinAndWait()
}

func TestAHandlerStillRunningDoesNotKeepTheHookAliveOnceStdinCloses(t *testing.T) {
	p := startHook(t, "minimal")
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.after_llm","params":{"model":"m","response":{}}}`)
	p.waitStderr("stuck")
	p.closeStdinAndWait()
	if !strings.Contains(p.stderr.String(), "handlers are still running") {
		t.Errorf("no warning on stderr:\n%s", p.stderr)
	}
}

func TestABeforeLLMModifyLongerThanAHostThatAnnouncesNothingReadsAbortsTheTurn(t *testing.T) {
	p := startHook(t, "minimal")
	p.send(`{"jsonrpc":"2.0","id":0.5,"method":"hook.hello","params":{"name":"minimal","version":1,"modes":["llm","tool"]}}`)
	p.replyTo("0.5")
	conversation := strings.Repeat(`{"role":"user","content":"`+strings.Repeat("x", 1000)+`"},`, 2000)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.before_llm","params":{"model":"m","messages":[` + strings.TrimSuffix(conversation, ",") + `]}}`)
	want := `{"action":"abort_turn","reason":"the hook's answer is longer than the host reads in a line (1048576 bytes)"}`
	if r, _ := p.replyTo("1"); string(r.Result) != want {
		t.Errorf("a 2 MB modify got %.200s %+v, want %s", r.Result, r.Error, want)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"ls","arguments":{}}}`)
	if r, _ := p.replyTo("2"); string(r.Result) != `{"action":"continue"}` {
		t.Errorf("the next call got %s %+v", r.Result, r.Error)
	}
	p.closeStdinAndWait()
	if log := p.stderr.String(); !strings.Contains(log, "method=hook.before_llm") || !strings.Contains(log, "bytes=20") {
		t.Errorf("the warning does not name the method and size:\n%s", log)
	}
}
