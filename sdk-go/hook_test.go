package hookwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// logBuffer is a Logger whose records a test can read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestHook(name string) (*Hook, *logBuffer) {
	var logs logBuffer
	h := New(name)
	h.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	return h, &logs
}

// jsonEqual fails the test unless got and want are the same JSON value.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func rpcError(t *testing.T, err error) *RPCError {
	t.Helper()
	var e *RPCError
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want a JSON-RPC error reply", err)
	}
	return e
}

var ctx = context.Background()

func TestHelloAnswersOKWithTheHooksNameAndTheModesItsHandlersNeed(t *testing.T) {
	h, logs := newTestHook("guard")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) { return Continue{}, nil })
	h.OnApproveTool(func(context.Context, ApproveToolParams) (ApproveToolResult, error) {
		return ApproveToolResult{Approved: true}, nil
	})
	h.OnEvent("agent.*", func(context.Context, RuntimeEvent) {})
	got, err := h.Call(ctx, MethodHello, HelloParams{Name: "from-config", Version: 1, Modes: []Mode{ModeTool}})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"ok":true,"name":"guard","modes":["observe","tool","approve"]}`)
	if strings.Contains(logs.String(), "version") {
		t.Errorf("a warning for the right version: %s", logs)
	}
}

func TestHelloWithoutANameAnswersWithTheConfiguredName(t *testing.T) {
	var h Hook
	h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) { return Continue{}, nil })
	got, err := h.Call(ctx, MethodHello, HelloParams{Name: "from-config", Version: 1})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"ok":true,"name":"from-config","modes":["llm"]}`)
}

func TestToolsNeedTheLLMAndToolModes(t *testing.T) {
	h := New("t")
	AddTool(h, "echo", "echo", func(_ context.Context, in struct{}) (ToolResult, error) { return Text(""), nil })
	if got, want := h.Modes(), []Mode{ModeLLM, ModeTool}; !slices.Equal(got, want) {
		t.Errorf("modes %v, want %v", got, want)
	}
}

func TestAnUnknownProtocolVersionIsAWarningNotAFailure(t *testing.T) {
	h, logs := newTestHook("future")
	got, err := h.Call(ctx, MethodHello, json.RawMessage(`{"name":"future","version":7,"modes":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"ok":true,"name":"future","modes":[]}`)
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "host=7") {
		t.Errorf("no warning naming the host's version: %q", logs)
	}
}

func TestAModeTheHostGrantsWithoutAHandlerIsAWarningThatSaysWhatItsCallsGet(t *testing.T) {
	h, logs := newTestHook("idle")
	if _, err := h.Call(ctx, MethodHello, HelloParams{Name: "idle", Version: 1, Modes: []Mode{ModeObserve, ModeLLM, ModeTool, ModeApprove}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`mode=observe effect="events are dropped"`,
		`mode=llm effect="hook.before_llm and hook.after_llm are answered with continue"`,
		`mode=tool effect="hook.before_tool and hook.after_tool are answered with continue"`,
		`mode=approve effect="hook.approve_tool is answered with an error, which a host may take as a denial"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no warning with %s in\n%s", want, logs)
		}
	}
}

func TestEveryMethodReachesItsTypedHandler(t *testing.T) {
	h := New("all")
	h.OnBeforeLLM(func(_ context.Context, req BeforeLLMParams) (BeforeLLMResult, error) {
		req.Model = "small-" + req.Model
		return req.Modify(), nil
	})
	h.OnAfterLLM(func(_ context.Context, resp AfterLLMParams) (AfterLLMResult, error) {
		return AbortTurn{Reason: Ptr("said " + *resp.Response.Content)}, nil
	})
	h.OnBeforeTool(func(_ context.Context, call BeforeToolParams) (BeforeToolResult, error) {
		return DenyTool{Reason: "no " + call.Tool}, nil
	})
	h.OnAfterTool(func(_ context.Context, res AfterToolParams) (AfterToolResult, error) {
		res.Result.ForLLM = strings.ToUpper(res.Result.ForLLM)
		return res.Modify(), nil
	})
	h.OnApproveTool(func(_ context.Context, req ApproveToolParams) (ApproveToolResult, error) {
		return ApproveToolResult{Approved: req.Tool == "read_file"}, nil
	})
	for _, c := range []struct{ method, params, want string }{
		{MethodBeforeLLM,
			`{"meta":{"TurnID":"t1"},"model":"m","messages":[{"role":"user","content":"hi"}],"options":{"temperature":0.5},"future":1}`,
			`{"action":"modify","request":{"meta":{"TurnID":"t1"},"model":"small-m","messages":[{"role":"user","content":"hi"}],"options":{"temperature":0.5},"future":1}}`},
		{MethodAfterLLM, `{"model":"m","response":{"content":"bye"}}`, `{"action":"abort_turn","reason":"said bye"}`},
		{MethodBeforeTool, `{"tool":"exec","arguments":{"command":"ls"}}`, `{"action":"deny_tool","reason":"no exec"}`},
		{MethodAfterTool, `{"tool":"exec","arguments":{},"result":{"for_llm":"a\nb","silent":false},"duration":15000000}`,
			`{"action":"modify","result":{"tool":"exec","arguments":{},"result":{"for_llm":"A\nB","silent":false},"duration":15000000}}`},
		{MethodApproveTool, `{"tool":"read_file","arguments":{"path":"x"}}`, `{"approved":true}`},
	} {
		got, err := h.Call(ctx, c.method, json.RawMessage(c.params))
		if err != nil {
			t.Errorf("%s: %v", c.method, err)
			continue
		}
		jsonEqual(t, got, c.want)
	}
}

func TestAMethodWithoutHandlerContinuesAndApprovalWithoutHandlerIsNotFound(t *testing.T) {
	h := New("half")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) { return nil, nil })
	for _, method := range []string{MethodBeforeTool, MethodAfterTool} {
		got, err := h.Call(ctx, method, json.RawMessage(`{"tool":"x","arguments":{},"result":{"for_llm":""}}`))
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		jsonEqual(t, got, `{"action":"continue"}`)
	}
	_, err := h.Call(ctx, MethodApproveTool, json.RawMessage(`{"tool":"x","arguments":{}}`))
	if e := rpcError(t, err); e.Code != CodeMethodNotFound {
		t.Errorf("code %d, want %d", e.Code, CodeMethodNotFound)
	}
}

func TestAnUnknownMethodIsMethodNotFound(t *testing.T) {
	_, err := New("h").Call(ctx, "hook.after_everything", json.RawMessage(`{}`))
	e := rpcError(t, err)
	if e.Code != CodeMethodNotFound || !strings.Contains(e.Message, "hook.after_everything") {
		t.Errorf("got %d %q", e.Code, e.Message)
	}
}

func TestParamsThatDoNotFitAreInvalidParams(t *testing.T) {
	h := New("h")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) {
		t.Error("the handler ran with params it cannot have")
		return nil, nil
	})
	_, err := h.Call(ctx, MethodBeforeTool, json.RawMessage(`{"arguments":{}}`))
	e := rpcError(t, err)
	if e.Code != CodeInvalidParams || !strings.Contains(e.Message, `"tool" is missing`) {
		t.Errorf("got %d %q", e.Code, e.Message)
	}
}

func TestAFailingHandlerIsAnErrorReplyWithItsMessage(t *testing.T) {
	h, logs := newTestHook("h")
	h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) {
		return nil, errors.New("the moderation service is down")
	})
	_, err := h.Call(ctx, MethodAfterLLM, json.RawMessage(`{"model":"m","response":{}}`))
	e := rpcError(t, err)
	if e.Code != CodeHandlerError || e.Message != "the moderation service is down" {
		t.Errorf("got %d %q", e.Code, e.Message)
	}
	if !strings.Contains(logs.String(), "the moderation service is down") {
		t.Errorf("the failure is not on the log: %q", logs)
	}
}

func TestAHandlerChoosesItsErrorCodeWithAnError(t *testing.T) {
	h := New("h")
	h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) {
		return nil, &RPCError{Code: CodeInvalidParams, Message: "response.content is empty"}
	})
	_, err := h.Call(ctx, MethodAfterLLM, json.RawMessage(`{"model":"m","response":{}}`))
	if e := rpcError(t, err); e.Code != CodeInvalidParams || e.Message != "response.content is empty" {
		t.Errorf("got %d %q", e.Code, e.Message)
	}
}

func TestAPanickingHandlerIsAnErrorReplyAndTheStackGoesToTheLog(t *testing.T) {
	h, logs := newTestHook("h")
	h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) {
		var m map[string]int
		m["boom"]++
		return nil, nil
	})
	_, err := h.Call(ctx, MethodBeforeTool, json.RawMessage(`{"tool":"x","arguments":{}}`))
	e := rpcError(t, err)
	if e.Code != CodeHandlerError || !strings.Contains(e.Message, "panic: assignment to entry in nil map") {
		t.Errorf("got %d %q", e.Code, e.Message)
	}
	if !strings.Contains(logs.String(), "hook_test.go") {
		t.Errorf("no stack on the log: %q", logs)
	}
}

func TestRegisteringAHandlerTwicePanics(t *testing.T) {
	h := New("h")
	h.OnAfterTool(func(context.Context, AfterToolParams) (AfterToolResult, error) { return nil, nil })
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), MethodAfterTool) {
			t.Errorf("recovered %v, want a panic naming %s", v, MethodAfterTool)
		}
	}()
	h.OnAfterTool(func(context.Context, AfterToolParams) (AfterToolResult, error) { return nil, nil })
}

func TestObserversSeeRuntimeAndLegacyEventsByKindGlob(t *testing.T) {
	h := New("obs")
	var tools, all []string
	h.OnEvent("agent.tool.*", func(_ context.Context, ev RuntimeEvent) {
		tools = append(tools, ev.Kind+" "+string(ev.Payload))
	})
	h.OnEvent("*", func(_ context.Context, ev RuntimeEvent) {
		turn := ""
		if ev.Scope.TurnID != nil {
			turn = *ev.Scope.TurnID
		}
		all = append(all, ev.Kind+"@"+turn)
	})
	for _, n := range []struct{ method, params string }{
		{MethodRuntimeEvent, `{"kind":"agent.tool.exec_start","source":{},"scope":{"turn_id":"t1"},"payload":{"Tool":"exec"}}`},
		{MethodEvent, `{"Kind":"tool_exec_end","Meta":{"TurnID":"t2","AgentID":"main"},"Payload":{"Tool":"exec"}}`},
		{MethodEvent, `{"Kind":"turn_end","Meta":{"TurnID":"t3"}}`},
		{MethodRuntimeEvent, `{"kind":"agent.llm.request","source":{},"scope":{},"payload":null}`},
		{MethodEvent, `{"Kind":"brand_new"}`},
	} {
		if got, err := h.Call(ctx, n.method, json.RawMessage(n.params)); got != nil || err != nil {
			t.Fatalf("%s got a reply: %s %v", n.method, got, err)
		}
	}
	if want := []string{`agent.tool.exec_start {"Tool":"exec"}`, `agent.tool.exec_end {"Tool":"exec"}`}; !slices.Equal(tools, want) {
		t.Errorf("agent.tool.* saw %q, want %q", tools, want)
	}
	if want := []string{"agent.tool.exec_start@t1", "agent.tool.exec_end@t2", "agent.turn.end@t3", "agent.llm.request@", "brand_new@"}; !slices.Equal(all, want) {
		t.Errorf("* saw %q, want %q", all, want)
	}
}

func TestALegacyKindAsPatternObservesItsRuntimeKind(t *testing.T) {
	h := New("obs")
	var seen []string
	h.OnEvent("tool_exec_end", func(_ context.Context, ev RuntimeEvent) { seen = append(seen, ev.Kind) })
	h.Call(ctx, MethodEvent, json.RawMessage(`{"Kind":"tool_exec_end"}`))
	h.Call(ctx, MethodRuntimeEvent, json.RawMessage(`{"kind":"agent.tool.exec_end","source":{},"scope":{},"payload":{}}`))
	h.Call(ctx, MethodEvent, json.RawMessage(`{"Kind":"tool_exec_start"}`))
	if want := []string{"agent.tool.exec_end", "agent.tool.exec_end"}; !slices.Equal(seen, want) {
		t.Errorf("saw %q, want %q", seen, want)
	}
}

func TestAPanickingObserverIsLoggedAndTheOthersStillRun(t *testing.T) {
	h, logs := newTestHook("obs")
	ran := false
	h.OnEvent("*", func(context.Context, RuntimeEvent) { panic("observer bug") })
	h.OnEvent("agent.*", func(context.Context, RuntimeEvent) { ran = true })
	if _, err := h.Call(ctx, MethodRuntimeEvent, json.RawMessage(`{"kind":"agent.error","source":{},"scope":{},"payload":{}}`)); err != nil {
		t.Fatal(err)
	}
	if !ran || !strings.Contains(logs.String(), "observer bug") {
		t.Errorf("ran=%v, log %q", ran, logs)
	}
}

func TestAMalformedEventPatternPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	New("h").OnEvent("agent.[tool", func(context.Context, RuntimeEvent) {})
}

func TestDecisionHelpersWriteTheWireForm(t *testing.T) {
	call := BeforeToolParams{Tool: "echo", Arguments: map[string]any{"text": "hi"}, Extra: Extra{"trace": json.RawMessage(`"x"`)}}
	for _, c := range []struct {
		v    json.Marshaler
		want string
	}{
		{Continue{}, `{}`},
		{call.Modify(), `{"action":"modify","call":{"tool":"echo","arguments":{"text":"hi"},"trace":"x"}}`},
		{Respond{Result: Text("15°C")}, `{"action":"respond","result":{"for_llm":"15°C"}}`},
		{Respond{Result: ErrorText("no such city")}, `{"action":"respond","result":{"for_llm":"no such city","is_error":true}}`},
		{Respond{Result: Text("sent").WithMedia("media://a", "media://b").WithResponseHandled()},
			`{"action":"respond","result":{"for_llm":"sent","media":["media://a","media://b"],"response_handled":true}}`},
		{Respond{Result: Text("done").WithForUser("Done!").WithSilent()},
			`{"action":"respond","result":{"for_llm":"done","for_user":"Done!","silent":true}}`},
		{DenyTool{Reason: "not here"}, `{"action":"deny_tool","reason":"not here"}`},
		{AbortTurn{Reason: Ptr("over budget")}, `{"action":"abort_turn","reason":"over budget"}`},
		{HardAbort{Reason: Ptr("kill switch")}, `{"action":"hard_abort","reason":"kill switch"}`},
		{BeforeLLMParams{Model: "m", Messages: []Message{}}.Modify(), `{"action":"modify","request":{"model":"m","messages":[]}}`},
		{AfterLLMParams{Model: "m"}.Modify(), `{"action":"modify","response":{"model":"m"}}`},
	} {
		got, err := c.v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, got, c.want)
	}
}

func TestWithMediaDoesNotShareTheOriginalsList(t *testing.T) {
	base := Text("x").WithMedia("media://a")
	base.Media = slices.Grow(base.Media, 4)
	one, two := base.WithMedia("media://1"), base.WithMedia("media://2")
	if one.Media[1] != "media://1" || two.Media[1] != "media://2" {
		t.Errorf("results share their media: %q %q", one.Media, two.Media)
	}
}
