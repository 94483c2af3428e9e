package hookwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// wireReply is a reply line as a test reads it.
type wireReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

// pipe is a Serve running on in-memory pipes.
type pipe struct {
	t       *testing.T
	in      *io.PipeWriter
	replies chan string
	done    chan error
}

func servePipe(t *testing.T, ctx context.Context, h *Hook) *pipe {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipe{t: t, in: inW, replies: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		err := h.Serve(ctx, inR, outW)
		outW.Close()
		p.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			p.replies <- sc.Text()
		}
		close(p.replies)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *pipe) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatalf("writing to the hook: %v", err)
		}
	}
}

// next is the next reply line. The deadline only keeps a broken test from
// hanging; it measures nothing.
func (p *pipe) next() (string, wireReply) {
	p.t.Helper()
	select {
	case line, ok := <-p.replies:
		if !ok {
			p.t.Fatal("the hook closed its output")
		}
		var r wireReply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			p.t.Fatalf("a reply line that is not JSON: %v: %q", err, line)
		}
		if r.JSONRPC != "2.0" {
			p.t.Errorf("jsonrpc %q in %s", r.JSONRPC, line)
		}
		return line, r
	case <-time.After(time.Minute):
		p.t.Fatal("no reply")
	}
	panic("unreachable")
}

// end closes the input and returns what Serve returned, and any reply
// that was still to come.
func (p *pipe) end() (error, []string) {
	p.t.Helper()
	p.in.Close()
	var rest []string
	for line := range p.replies {
		rest = append(rest, line)
	}
	select {
	case err := <-p.done:
		return err, rest
	case <-time.After(20 * time.Second):
		p.t.Fatal("Serve did not return")
	}
	panic("unreachable")
}

func TestALineThatIsNotJSONIsAParseErrorWithANullIDAndTheLoopGoesOn(t *testing.T) {
	p := servePipe(t, ctx, New("h"))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.hello",`, `{"jsonrpc":"2.0","id":2,"method":"hook.hello","params":{"name":"h","version":1,"modes":[]}}`)
	line, r := p.next()
	if string(r.ID) != "null" || r.Error == nil || r.Error.Code != CodeParseError {
		t.Errorf("got %s, want a -32700 error with id null", line)
	}
	line, r = p.next()
	if string(r.ID) != "2" || r.Result == nil {
		t.Errorf("after the bad line got %s, want the hello reply", line)
	}
}

func TestJSONThatIsNotARequestIsAnInvalidRequest(t *testing.T) {
	p := servePipe(t, ctx, New("h"))
	p.send(`[1,2]`, `{"jsonrpc":"2.0","id":{"a":1},"method":"hook.hello"}`, `{"jsonrpc":"2.0","id":4}`)
	for _, wantID := range []string{"null", "null", "4"} {
		line, r := p.next()
		if string(r.ID) != wantID || r.Error == nil || r.Error.Code != CodeInvalidRequest {
			t.Errorf("got %s, want a -32600 error with id %s", line, wantID)
		}
	}
}

// The reader leaves checking a request's params to their decoder, which
// reads them once; the replies must be those of a line checked whole first.
func TestTheRepliesToBrokenRequestsDoNotDependOnWhatChecksThem(t *testing.T) {
	h := New("h")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) { return nil, nil })
	p := servePipe(t, ctx, h)
	for _, c := range []struct {
		line, id string
		code     int64
	}{
		// Not JSON: in the params of a method with a decoder, of one without, of a notification.
		{`{"jsonrpc":"2.0","id":1,"method":"hook.before_llm","params":{"model":"m","messages":[{"role":"user","content":"a\qb"}]}}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"t","arguments":{"x":tru}}}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","id":3,"method":"hook.after_tool","params":{"tool":7,"result":{} x}}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","id":4,"method":"hook.approve_tool","params":{"tool":"t",}}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","id":5,"method":"hook.nope","params":[1 2]}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"x",}}`, "null", CodeParseError},
		{`{"jsonrpc":"2.0","id":6,"method":"hook.before_tool","params":{"tool":"t","arguments":{}},"x":[}`, "null", CodeParseError},
		// JSON: the params do not fit, or are missing.
		{`{"jsonrpc":"2.0","id":7,"method":"hook.before_tool","params":{"tool":7,"arguments":{}}}`, "7", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":8,"method":"hook.before_tool"}`, "8", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":9,"method":"hook.before_llm","params":{"messages":[]}}`, "9", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":10,"method":7}`, "10", CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":11,"method":"hook.approve_tool","params":{}}`, "11", CodeMethodNotFound},
	} {
		p.send(c.line)
		if c.id == "null" && strings.Contains(c.line, `"method":"hook.runtime_event"`) {
			p.send(`{"jsonrpc":"2.0","id":99,"method":"hook.hello","params":{}}`)
			if line, r := p.next(); string(r.ID) != "null" || r.Error == nil || r.Error.Code != CodeParseError {
				t.Errorf("%s\ngot %s, want a parse error", c.line, line)
			}
			p.next() // the hello's
			continue
		}
		line, r := p.next()
		if string(r.ID) != c.id || r.Error == nil || r.Error.Code != c.code {
			t.Errorf("%s\ngot %s, want error %d with id %s", c.line, line, c.code, c.id)
		}
	}
}

func TestNotificationsGetNoReply(t *testing.T) {
	h, _ := newTestHook("h")
	seen := make(chan string, 10)
	h.OnEvent("*", func(_ context.Context, ev RuntimeEvent) { seen <- ev.Kind })
	p := servePipe(t, ctx, h)
	p.send(
		`{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"agent.turn.start","source":{},"scope":{},"payload":{}}}`,
		`{"jsonrpc":"2.0","id":0,"method":"hook.event","params":{"Kind":"turn_end"}}`,
		`{"jsonrpc":"2.0","method":"hook.unheard_of","params":{}}`,
		`{"jsonrpc":"2.0","method":"hook.runtime_event","params":"not an event"}`,
		`{"jsonrpc":"2.0","id":9,"method":"hook.unheard_of","params":{}}`,
	)
	line, r := p.next()
	if string(r.ID) != "9" || r.Error == nil || r.Error.Code != CodeMethodNotFound {
		t.Errorf("the first reply is %s, want -32601 for request 9: notifications get none", line)
	}
	err, rest := p.end()
	if err != nil || len(rest) > 0 {
		t.Errorf("Serve returned %v with replies %q still to come", err, rest)
	}
	close(seen)
	var got []string
	for kind := range seen {
		got = append(got, kind)
	}
	if !slices.Equal(got, []string{"agent.turn.start", "agent.turn.end"}) {
		t.Errorf("observed %q", got)
	}
}

func TestFiftySlowRequestsAreAnsweredConcurrentlyAndMatchedByID(t *testing.T) {
	const n = 50
	h := New("slow")
	var arrived sync.WaitGroup
	arrived.Add(n)
	release := make([]chan struct{}, n+1)
	for i := range release {
		release[i] = make(chan struct{})
	}
	h.OnBeforeTool(func(_ context.Context, call BeforeToolParams) (BeforeToolResult, error) {
		i := int(call.Arguments["i"].(float64))
		arrived.Done()
		<-release[i]
		return DenyTool{Reason: fmt.Sprint("request ", i)}, nil
	})
	p := servePipe(t, ctx, h)
	for i := 1; i <= n; i++ {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hook.before_tool","params":{"tool":"t","arguments":{"i":%d}}}`, i, i))
	}
	// Every handler is running before any finishes: none waits for another.
	arrived.Wait()
	var order []string
	for i := n; i >= 1; i-- {
		close(release[i])
		_, r := p.next()
		var res DenyTool
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint("request ", i); string(r.ID) != fmt.Sprint(i) || res.Reason != want {
			t.Fatalf("reply id %s reason %q, want id %d reason %q", r.ID, res.Reason, i, want)
		}
		order = append(order, string(r.ID))
	}
	if order[0] != "50" || order[n-1] != "1" {
		t.Errorf("replies came in order %v", order)
	}
}

func TestAPanicIsAnErrorReplyAndTheHookGoesOn(t *testing.T) {
	h, _ := newTestHook("h")
	h.OnBeforeTool(func(_ context.Context, call BeforeToolParams) (BeforeToolResult, error) {
		if call.Tool == "boom" {
			panic("kaboom")
		}
		return Continue{}, nil
	})
	p := servePipe(t, ctx, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"tool":"boom","arguments":{}}}`)
	line, r := p.next()
	if string(r.ID) != "1" || r.Error == nil || r.Error.Code != CodeHandlerError || !strings.Contains(r.Error.Message, "kaboom") {
		t.Errorf("got %s", line)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"fine","arguments":{}}}`)
	if line, r := p.next(); string(r.ID) != "2" || string(r.Result) != `{"action":"continue"}` {
		t.Errorf("after the panic got %s", line)
	}
}

func TestALineLongerThanTheHostsLimitIsRead(t *testing.T) {
	// The reference host reads lines of 64 MiB; a hook must not stop short
	// of that. The id comes after the payload, so a reply that carries it
	// shows that the whole line was read, and the next reply that the line
	// after it was read apart from it.
	p := servePipe(t, ctx, New("big"))
	p.send(`{"jsonrpc":"2.0","method":"hook.big","params":{"blob":"`+strings.Repeat("x", 65<<20)+`"},"id":1}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.small"}`)
	answered := map[string]bool{}
	for range 2 {
		if line, r := p.next(); r.Error == nil || r.Error.Code != CodeMethodNotFound {
			t.Errorf("got %.200s, want a -32601 reply", line)
		} else {
			answered[string(r.ID)] = true
		}
	}
	if !answered["1"] || !answered["2"] {
		t.Errorf("answered %v, want requests 1 and 2 (in any order)", answered)
	}
}

func TestWhenInputEndsServeWaitsForHandlersInFlight(t *testing.T) {
	h := New("h")
	started, finish := make(chan struct{}), make(chan struct{})
	h.OnAfterTool(func(ctx context.Context, res AfterToolParams) (AfterToolResult, error) {
		close(started)
		<-finish
		if ctx.Err() != nil {
			return nil, errors.New("cancelled, though the host only closed stdin")
		}
		return Continue{}, nil
	})
	p := servePipe(t, ctx, h)
	p.send(`{"jsonrpc":"2.0","id":7,"method":"hook.after_tool","params":{"tool":"t","result":{"for_llm":""}}}`)
	<-started
	p.in.Close()
	select {
	case err := <-p.done:
		t.Fatalf("Serve returned (%v) while a handler was running", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(finish)
	err, rest := p.end()
	if err != nil || len(rest) != 1 || rest[0] != `{"jsonrpc":"2.0","id":7,"result":{"action":"continue"}}` {
		t.Errorf("Serve returned %v with replies %q", err, rest)
	}
}

func TestCancellingServeCancelsTheHandlersAndReturnsNil(t *testing.T) {
	h := New("h")
	started := make(chan struct{})
	h.OnApproveTool(func(ctx context.Context, req ApproveToolParams) (ApproveToolResult, error) {
		close(started)
		<-ctx.Done()
		return ApproveToolResult{Reason: Ptr("shutting down")}, nil
	})
	cctx, cancel := context.WithCancel(ctx)
	p := servePipe(t, cctx, h)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"hook.approve_tool","params":{"tool":"t","arguments":{}}}`)
	<-started
	cancel()
	if line, _ := p.next(); line != `{"jsonrpc":"2.0","id":3,"result":{"approved":false,"reason":"shutting down"}}` {
		t.Errorf("got %s", line)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("host gone") }

func TestAFailedWriteEndsServeWithTheError(t *testing.T) {
	inR, inW := io.Pipe()
	done := make(chan error)
	go func() { done <- New("h").Serve(ctx, inR, failingWriter{}) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{}}`+"\n")
	select {
	case err := <-done:
		if err == nil || err.Error() != "host gone" {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return")
	}
	inW.Close()
}

func TestRequestIDsGoBackExactlyAsTheyCame(t *testing.T) {
	p := servePipe(t, ctx, New("h"))
	p.send(`{"jsonrpc":"2.0","id":18446744073709551615,"method":"hook.nope"}`, `{"jsonrpc":"2.0","id":"abc","method":"hook.nope"}`)
	ids := map[string]bool{}
	for range 2 {
		_, r := p.next()
		ids[string(r.ID)] = true
	}
	if !ids["18446744073709551615"] || !ids[`"abc"`] {
		t.Errorf("reply ids %v, want 18446744073709551615 and \"abc\"", ids)
	}
}

func TestARepliesLineIsKeptWithinWhatTheHostAnnouncesInHello(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	for _, c := range []struct {
		hello string
		whole bool
	}{
		{`{"name":"h","version":1,"modes":["llm"]}`, false},
		{`{"name":"h","version":1,"modes":["llm"],"max_line_bytes":0}`, false},
		{`{"name":"h","version":1,"modes":["llm"],"max_line_bytes":67108864}`, true},
	} {
		h, logs := newTestHook("h")
		h.OnBeforeLLM(func(_ context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
			req.Messages = append(req.Messages, Message{Role: "system", Content: Ptr(big)})
			return req.Modify(), nil
		})
		h.OnApproveTool(func(context.Context, ApproveToolParams) (ApproveToolResult, error) {
			return ApproveToolResult{Approved: true, Reason: Ptr(big)}, nil
		})
		p := servePipe(t, ctx, h)
		p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":`+c.hello+`}`,
			`{"jsonrpc":"2.0","id":2,"method":"hook.before_llm","params":{"model":"m","messages":[]}}`,
			`{"jsonrpc":"2.0","id":3,"method":"hook.approve_tool","params":{"tool":"t","arguments":{}}}`)
		byID := map[string]wireReply{}
		for range 3 {
			_, r := p.next() // in the order the handlers finish
			byID[string(r.ID)] = r
		}
		llm, approve := byID["2"], byID["3"]
		if c.whole {
			if len(llm.Result) < 2<<20 || len(approve.Result) < 2<<20 {
				t.Errorf("%s: a reply was cut: %.100s, %.100s", c.hello, llm.Result, approve.Result)
			}
			continue
		}
		reason := `"reason":"the hook's answer is longer than the host reads in a line (1048576 bytes)"}`
		if string(llm.Result) != `{"action":"abort_turn",`+reason || string(approve.Result) != `{"approved":false,`+reason {
			t.Errorf("%s: got %.100s and %.100s %v, want abort_turn and a denial", c.hello, llm.Result, approve.Result, approve.Error)
		}
		if !strings.Contains(logs.String(), "method=hook.before_llm bytes=2097") || !strings.Contains(logs.String(), "limit=1048576") {
			t.Errorf("the warning does not name the method, the size and the limit:\n%s", logs)
		}
	}
}

func TestHelloWarnsOfAGrantedModeWithoutAHandler(t *testing.T) {
	h, logs := newTestHook("h")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) { return nil, nil })
	if _, err := h.Call(ctx, MethodHello, []byte(`{"name":"h","version":1,"modes":["tool","approve"]}`)); err != nil {
		t.Fatal(err)
	}
	if log := logs.String(); !strings.Contains(log, "mode=approve") || strings.Contains(log, "mode=tool") {
		t.Errorf("want a warning about approve only:\n%s", log)
	}
}

// An after_tool modify of text that is not ASCII is cut on a character
// boundary, to a line that fits, and the marker counts the bytes cut.
func TestAnAfterToolModifyIsCutToFitOnACharacterBoundary(t *testing.T) {
	text := strings.Repeat("é€😀<", 100) // 2, 3, 4 and 1 bytes: 1000 in all
	h, _ := newTestHook("h")
	h.OnAfterTool(func(_ context.Context, ran AfterToolParams) (AfterToolResult, error) {
		ran.Result.ForLLM = text
		return ran.Modify(), nil
	})
	p := servePipe(t, ctx, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"h","version":1,"modes":["tool"],"max_line_bytes":500}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.after_tool","params":{"tool":"t","result":{"for_llm":"x"}}}`)
	p.next()
	line, r := p.next()
	if len(line) > 500 {
		t.Errorf("the line is %d bytes, over 500", len(line))
	}
	var res struct {
		Action string `json:"action"`
		Result struct {
			Result struct {
				ForLLM string `json:"for_llm"`
			} `json:"result"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || res.Action != "modify" {
		t.Fatalf("got %s (%v), want a modify", r.Result, err)
	}
	got := res.Result.Result.ForLLM
	kept, marker, ok := strings.Cut(got, "\n[hookwire: ")
	if !ok || !strings.HasPrefix(text, kept) || len(kept) < 300 || !utf8.ValidString(kept) {
		t.Fatalf("for_llm %q is not a start of the text with a marker", got)
	}
	if want := fmt.Sprintf("%d bytes cut to fit the host's line]", len(text)-len(kept)); marker != want {
		t.Errorf("marker %q, want %q", marker, want)
	}
}
