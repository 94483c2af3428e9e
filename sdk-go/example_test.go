package hookwire_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"

	hookwire "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/shell"
)

type city struct {
	City string `json:"city" desc:"City name, e.g.: Beijing"`
}

// The weather plugin of the README: a tool the LLM can call, answered by
// the hook. A real hook ends its main with h.Main(); here Call shows what
// the hook answers.
func Example() {
	h := hookwire.New("weather")
	hookwire.AddTool(h, "get_weather", "Query the weather of a city", func(_ context.Context, in city) (hookwire.ToolResult, error) {
		return hookwire.Text(in.City + " weather: Sunny, 15°C"), nil
	})

	res, _ := h.Call(context.Background(), hookwire.MethodBeforeTool,
		hookwire.BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": "Beijing"}})
	fmt.Println(string(res))
	// Output:
	// {"action":"respond","result":{"for_llm":"Beijing weather: Sunny, 15°C"}}
}

// The after_tool handler of the README: a host may leave out the result
// and the arguments, and the handler reads them safely.
func ExampleAfterToolParams_membersLeftOut() {
	h := hookwire.New("redact")
	h.OnAfterTool(func(_ context.Context, ran hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
		if ran.Result == nil { // no result to look at: let it through
			return nil, nil
		}
		command, _ := ran.Arguments["command"].(string) // "" when there are no arguments
		ran.Result.ForLLM = strings.ReplaceAll(ran.Result.ForLLM, "hunter2", "[redacted]")
		ran.Result.ForLLM += " (after " + command + ")"
		return ran.Modify(), nil
	})
	ctx := context.Background()
	for _, params := range []string{`{"tool":"exec"}`, `{"tool":"exec","result":{"for_llm":"pw hunter2"}}`} {
		res, err := h.Call(ctx, hookwire.MethodAfterTool, json.RawMessage(params))
		fmt.Println(string(res), err)
	}
	// Output:
	// {"action":"continue"} <nil>
	// {"action":"modify","result":{"tool":"exec","result":{"for_llm":"pw [redacted] (after )"}}} <nil>
}

// The reviewer of the README: context for the model and a message for the
// user, beside a continue.
func ExampleContinue_remarks() {
	h := hookwire.New("reviewer")
	h.OnAfterTool(func(_ context.Context, ran hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
		if ran.Tool == "write_file" {
			return hookwire.Continue{Context: hookwire.Ptr("Run the tests before you say it is done."), Message: hookwire.Ptr("reviewer: a file changed")}, nil
		}
		return nil, nil
	})
	res, err := h.Call(context.Background(), hookwire.MethodAfterTool, json.RawMessage(`{"tool":"write_file","result":{"for_llm":"ok"}}`))
	fmt.Println(string(res), err)
	// Output:
	// {"action":"continue","context":"Run the tests before you say it is done.","message":"reviewer: a file changed"} <nil>
}

// The SDK answers hook.hello with the hook's name and the modes its
// handlers need.
func ExampleHook_Modes() {
	h := hookwire.New("audit")
	h.OnAfterTool(func(context.Context, hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
		return hookwire.Continue{}, nil
	})
	h.OnEvent("agent.turn.*", func(context.Context, hookwire.RuntimeEvent) {})

	fmt.Println(h.Modes())
	hello, _ := h.Call(context.Background(), hookwire.MethodHello, hookwire.HelloParams{Name: "audit", Version: 1})
	fmt.Println(string(hello))
	// Output:
	// [observe tool]
	// {"ok":true,"name":"audit","modes":["observe","tool"]}
}

// A tool's parameters come from the fields of its arguments struct: json
// names them, omitempty makes them optional, desc describes them. The
// arguments are checked before the function runs.
func ExampleAddTool() {
	type forecastArgs struct {
		City string `json:"city" desc:"City name"`
		Days int    `json:"days,omitempty" desc:"How many days ahead, 1 by default"`
	}
	h := hookwire.New("forecast")
	hookwire.AddTool(h, "forecast", "Weather forecast for a city", func(_ context.Context, in forecastArgs) (hookwire.ToolResult, error) {
		if in.City == "Atlantis" {
			return hookwire.ToolResult{}, fmt.Errorf("no forecast for %s", in.City) // an is_error result
		}
		return hookwire.Text(fmt.Sprintf("%s: sunny for %d day(s)", in.City, max(in.Days, 1))), nil
	})
	ctx := context.Background()

	req, _ := h.Call(ctx, hookwire.MethodBeforeLLM, hookwire.BeforeLLMParams{Model: "m", Messages: []hookwire.Message{}})
	var modified struct{ Request hookwire.BeforeLLMParams }
	json.Unmarshal(req, &modified)
	schema, _ := json.Marshal(modified.Request.Tools[0].Function.Parameters)
	fmt.Println(string(schema))

	for _, args := range []string{`{"city":"Paris","days":3}`, `{"city":"Paris","days":"three"}`, `{"city":"Atlantis"}`} {
		res, _ := h.Call(ctx, hookwire.MethodBeforeTool, json.RawMessage(`{"tool":"forecast","arguments":`+args+`}`))
		fmt.Println(string(res))
	}
	// Output:
	// {"properties":{"city":{"description":"City name","type":"string"},"days":{"description":"How many days ahead, 1 by default","type":"integer"}},"required":["city"],"type":"object"}
	// {"action":"respond","result":{"for_llm":"Paris: sunny for 3 day(s)"}}
	// {"action":"respond","result":{"for_llm":"invalid arguments for forecast: argument \"days\" must be an integer, not \"three\"","is_error":true}}
	// {"action":"respond","result":{"for_llm":"no forecast for Atlantis","is_error":true}}
}

// A modify carries the whole object: change what was received and send it
// back with Modify.
func ExampleHook_OnBeforeLLM() {
	h := hookwire.New("house-rules")
	h.OnBeforeLLM(func(_ context.Context, req hookwire.BeforeLLMParams) (hookwire.BeforeLLMResult, error) {
		rules := hookwire.Message{Role: "system", Content: hookwire.Ptr("Answer in one sentence.")}
		req.Messages = append([]hookwire.Message{rules}, req.Messages...)
		return req.Modify(), nil
	})

	res, _ := h.Call(context.Background(), hookwire.MethodBeforeLLM,
		json.RawMessage(`{"meta":{"TurnID":"t1"},"model":"m","messages":[{"role":"user","content":"hi"}],"options":{"temperature":0.7}}`))
	fmt.Println(string(res))
	// Output:
	// {"action":"modify","request":{"meta":{"TurnID":"t1"},"model":"m","messages":[{"role":"system","content":"Answer in one sentence."},{"role":"user","content":"hi"}],"options":{"temperature":0.7}}}
}

// Stop a turn when the LLM's answer breaks a rule.
func ExampleHook_OnAfterLLM() {
	h := hookwire.New("no-secrets")
	h.OnAfterLLM(func(_ context.Context, resp hookwire.AfterLLMParams) (hookwire.AfterLLMResult, error) {
		if c := resp.Response.Content; c != nil && strings.Contains(*c, "BEGIN PRIVATE KEY") {
			return hookwire.AbortTurn{Reason: hookwire.Ptr("the answer contains a private key")}, nil
		}
		return hookwire.Continue{}, nil
	})

	res, _ := h.Call(context.Background(), hookwire.MethodAfterLLM,
		json.RawMessage(`{"model":"m","response":{"role":"assistant","content":"-----BEGIN PRIVATE KEY-----"}}`))
	fmt.Println(string(res))
	// Output:
	// {"action":"abort_turn","reason":"the answer contains a private key"}
}

// Deny a tool call, rewrite one, or let it through.
func ExampleHook_OnBeforeTool() {
	h := hookwire.New("guard")
	h.OnBeforeTool(func(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		cmd, _ := call.Arguments["command"].(string)
		switch r := shell.Read(cmd); {
		case len(r.Unknown) > 0 || slices.ContainsFunc(r.Commands, recursiveRm):
			return hookwire.DenyTool{Reason: "dangerous command"}, nil
		case call.Tool == "exec":
			call.Arguments = map[string]any{"command": "timeout 10 " + cmd}
			return call.Modify(), nil
		}
		return hookwire.Continue{}, nil
	})

	ctx := context.Background()
	for _, command := range []string{"rm -rf /", `r\m --recursive /`, "ls"} {
		res, _ := h.Call(ctx, hookwire.MethodBeforeTool, hookwire.BeforeToolParams{Tool: "exec", Arguments: map[string]any{"command": command}})
		fmt.Println(string(res))
	}
	// Output:
	// {"action":"deny_tool","reason":"dangerous command"}
	// {"action":"deny_tool","reason":"dangerous command"}
	// {"action":"modify","call":{"tool":"exec","arguments":{"command":"timeout 10 ls"}}}
}

// recursiveRm is the README's: whether one command of a line, as the shell
// reader reads it, is a recursive rm.
func recursiveRm(c shell.Command) bool {
	return c.Name() == "rm" && (c.HasFlag('r', "recursive") || c.HasFlag('R', "recursive"))
}

// Change what a tool returned; the tool result is res.Result.
func ExampleHook_OnAfterTool() {
	h := hookwire.New("redact")
	h.OnAfterTool(func(_ context.Context, res hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
		res.Result.ForLLM = strings.ReplaceAll(res.Result.ForLLM, "hunter2", "[redacted]")
		return res.Modify(), nil
	})

	res, _ := h.Call(context.Background(), hookwire.MethodAfterTool,
		json.RawMessage(`{"tool":"read_file","arguments":{"path":".env"},"result":{"for_llm":"PASSWORD=hunter2"},"duration":15000000}`))
	fmt.Println(string(res))
	// Output:
	// {"action":"modify","result":{"tool":"read_file","arguments":{"path":".env"},"result":{"for_llm":"PASSWORD=[redacted]"},"duration":15000000}}
}

// Approve read-only tools, deny the rest with a reason.
func ExampleHook_OnApproveTool() {
	h := hookwire.New("approver")
	h.OnApproveTool(func(_ context.Context, req hookwire.ApproveToolParams) (hookwire.ApproveToolResult, error) {
		if req.Tool == "read_file" {
			return hookwire.ApproveToolResult{Approved: true}, nil
		}
		return hookwire.ApproveToolResult{Reason: hookwire.Ptr(req.Tool + " needs a human")}, nil
	})

	ctx := context.Background()
	for _, tool := range []string{"read_file", "exec"} {
		res, _ := h.Call(ctx, hookwire.MethodApproveTool, hookwire.ApproveToolParams{Tool: tool, Arguments: map[string]any{}})
		fmt.Println(string(res))
	}
	// Output:
	// {"approved":true}
	// {"approved":false,"reason":"exec needs a human"}
}

// One observer sees hook.runtime_event and the legacy hook.event alike,
// filtered by a glob over the runtime kinds.
func ExampleHook_OnEvent() {
	h := hookwire.New("audit")
	h.OnEvent("agent.tool.*", func(_ context.Context, ev hookwire.RuntimeEvent) {
		fmt.Println(ev.Kind, string(ev.Payload))
	})

	ctx := context.Background()
	h.Call(ctx, hookwire.MethodRuntimeEvent, json.RawMessage(`{"kind":"agent.tool.exec_start","source":{},"scope":{},"payload":{"Tool":"exec"}}`))
	h.Call(ctx, hookwire.MethodEvent, json.RawMessage(`{"Kind":"tool_exec_end","Payload":{"Tool":"exec"}}`))
	h.Call(ctx, hookwire.MethodEvent, json.RawMessage(`{"Kind":"turn_end"}`))
	// Output:
	// agent.tool.exec_start {"Tool":"exec"}
	// agent.tool.exec_end {"Tool":"exec"}
}

// Respond with a tool result: text, an error, media, a message for the
// user, silence, or the end of the turn.
func ExampleToolResult() {
	for _, r := range []hookwire.ToolResult{
		hookwire.Text("15°C"),
		hookwire.ErrorText("no such city"),
		hookwire.Text("chart attached").WithMedia("media://chart1").WithResponseHandled(),
		hookwire.Text("saved").WithForUser("Saved your notes."),
		hookwire.Text("indexed").WithSilent(),
	} {
		b, _ := hookwire.Respond{Result: r}.MarshalJSON()
		fmt.Println(string(b))
	}
	// Output:
	// {"action":"respond","result":{"for_llm":"15°C"}}
	// {"action":"respond","result":{"for_llm":"no such city","is_error":true}}
	// {"action":"respond","result":{"for_llm":"chart attached","media":["media://chart1"],"response_handled":true}}
	// {"action":"respond","result":{"for_llm":"saved","for_user":"Saved your notes."}}
	// {"action":"respond","result":{"for_llm":"indexed","silent":true}}
}

// Call runs a hook's handlers in-process, from the hook's own tests; an
// error reply comes back as an *RPCError.
func ExampleHook_Call() {
	h := hookwire.New("guard")
	h.OnBeforeTool(func(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		if call.Tool == "" {
			return nil, fmt.Errorf("a call without a tool")
		}
		return hookwire.DenyTool{Reason: "no " + call.Tool}, nil
	})
	h.Logger = slog.New(slog.DiscardHandler)
	ctx := context.Background()

	raw, _ := h.Call(ctx, hookwire.MethodBeforeTool, hookwire.BeforeToolParams{Tool: "exec", Arguments: map[string]any{}})
	res, _ := hookwire.DecodeBeforeToolResult(raw)
	fmt.Printf("%T %s\n", res, res.(hookwire.DenyTool).Reason)

	_, err := h.Call(ctx, hookwire.MethodBeforeTool, hookwire.BeforeToolParams{Arguments: map[string]any{}})
	fmt.Println(err)
	// Output:
	// hookwire.DenyTool no exec
	// json-rpc error -32000: a call without a tool
}

// Serve speaks the protocol on any reader and writer: one message per line
// in, one reply per line out.
func ExampleHook_Serve() {
	h := hookwire.New("echo")
	in := strings.NewReader(`not json
{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"echo","version":1,"modes":[]}}
`)
	h.Serve(context.Background(), in, os.Stdout)
	// Output:
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character 'o' in literal null (expecting 'u')"}}
	// {"jsonrpc":"2.0","id":1,"result":{"ok":true,"name":"echo","modes":[]}}
}

// The main function of a hook: Main serves stdin and stdout until the host
// closes stdin or stops the hook, with stdout protected, so that a stray
// fmt.Println goes to the log. Log with log/slog: it writes to stderr.
func ExampleHook_Main() {
	h := hookwire.New("logger")
	h.OnEvent("*", func(ctx context.Context, ev hookwire.RuntimeEvent) {
		slog.InfoContext(ctx, "event", "kind", ev.Kind)
	})
	h.Main()
}

// OnClose runs when the hook stops serving, once the handlers are done:
// here the host sends one call and closes stdin. HostExtensions are what
// the host's hello announced.
func ExampleHook_OnClose() {
	h := hookwire.New("counter")
	calls := 0
	var mu sync.Mutex
	h.OnBeforeTool(func(ctx context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return hookwire.Continue{}, nil
	})
	h.OnClose(func(ctx context.Context) {
		fmt.Println("calls:", calls, "host extensions:", h.HostExtensions())
	})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"counter","version":1,"modes":["tool"],"extensions":["approve_tool.abstain"]}}
{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"echo_text","arguments":{"text":"hi"}}}
`)
	h.Serve(context.Background(), in, io.Discard)
	// Output:
	// calls: 1 host extensions: [approve_tool.abstain]
}

// The guard of the README's tool vocabulary: the same check under Claude
// Code (Bash), Gemini CLI (run_shell_command) and PicoClaw (exec), sent
// canonical or not.
func ExampleBeforeToolParams_CanonicalTool() {
	h := hookwire.New("shell-guard")
	h.OnBeforeTool(func(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
		use := call.CanonicalTool()
		if use.Kind != "shell" || use.Command == nil {
			return nil, nil
		}
		if r := shell.Read(*use.Command); len(r.Unknown) > 0 || slices.ContainsFunc(r.Commands, recursiveRm) {
			return hookwire.DenyTool{Reason: "a recursive delete, or a command that cannot be read, is not allowed"}, nil
		}
		return nil, nil
	})
	ctx := context.Background()
	for _, params := range []string{
		`{"tool":"Bash","arguments":{"command":"rm -rf /"}}`,
		`{"tool":"run_shell_command","arguments":{"command":"rm -rf /"}}`,
		`{"tool":"exec","arguments":{"command":"ls"}}`,
		`{"tool":"any_name","canonical":{"kind":"shell","command":"rm -rf /"}}`,
		`{"tool":"Bash","arguments":{"command":"sudo bash -c 'rm -fr /'"}}`,
		`{"tool":"Bash","arguments":{"command":"echo 'rm -rf /'"}}`,
		`{"tool":"Bash","arguments":{"command":"$RM -rf /"}}`,
	} {
		res, _ := h.Call(ctx, hookwire.MethodBeforeTool, json.RawMessage(params))
		fmt.Println(string(res))
	}
	// Output:
	// {"action":"deny_tool","reason":"a recursive delete, or a command that cannot be read, is not allowed"}
	// {"action":"deny_tool","reason":"a recursive delete, or a command that cannot be read, is not allowed"}
	// {"action":"continue"}
	// {"action":"deny_tool","reason":"a recursive delete, or a command that cannot be read, is not allowed"}
	// {"action":"deny_tool","reason":"a recursive delete, or a command that cannot be read, is not allowed"}
	// {"action":"continue"}
	// {"action":"deny_tool","reason":"a recursive delete, or a command that cannot be read, is not allowed"}
}
