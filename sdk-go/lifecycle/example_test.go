package lifecycle_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	hookwire "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/lifecycle"
	"github.com/hookwire/hookwire/sdk-go/shell"
)

var discard = slog.New(slog.DiscardHandler)

// dangerous: a recursive rm or a mkfs, at any depth, or a command that cannot be read whole.
func dangerous(cmd string) bool {
	r := shell.Read(cmd)
	return len(r.Unknown) > 0 || slices.ContainsFunc(r.Commands, func(c shell.Command) bool {
		return c.Name() == "rm" && (c.HasFlag('r', "recursive") || c.HasFlag('R', "recursive")) ||
			strings.HasPrefix(c.Name(), "mkfs")
	})
}

// guard is the hook of the README: it skips dangerous commands, masks
// secrets in what tools return, and lets canUseTool approve read-only tools
// and leave the rest to the host. A real hook ends its main with h.Main().
func guard() *hookwire.Hook {
	return lifecycle.New("guard", lifecycle.Options{
		Hooks: lifecycle.Hooks{
			lifecycle.PreToolUse: {func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
				if cmd, _ := in.ToolInput["command"].(string); dangerous(cmd) {
					return lifecycle.Output{Action: lifecycle.Skip, Reason: "dangerous command: " + cmd}, nil
				}
				return lifecycle.Output{Action: lifecycle.Continue}, nil
			}},
			lifecycle.PostToolUse: {func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
				masked := regexp.MustCompile(`SECRET_KEY=\w+`).ReplaceAllString(in.ToolOutput.ForLLM, "SECRET_KEY=***")
				return lifecycle.Output{Action: lifecycle.Continue, ModifiedOutput: masked}, nil
			}},
		},
		CanUseTool: func(ctx context.Context, toolName string, input map[string]any, opts lifecycle.CanUseToolOptions) (lifecycle.PermissionResult, error) {
			if opts.ToolKind == hookwire.ToolKindReadonly {
				return lifecycle.PermissionResult{Behavior: lifecycle.Allow}, nil
			}
			return lifecycle.PermissionResult{Behavior: lifecycle.Ask}, nil
		},
	})
}

// The guard of the README, with Call showing what it answers the host.
func Example() {
	h := guard()
	ask := func(method, params string) {
		res, _ := h.Call(context.Background(), method, []byte(params))
		fmt.Println(string(res))
	}
	fmt.Println(h.Modes())
	ask(hookwire.MethodBeforeTool, `{"tool":"shell","arguments":{"command":"rm -rf /"}}`)
	ask(hookwire.MethodBeforeTool, `{"tool":"shell","arguments":{"command":"sudo rm --recursive /"}}`)
	ask(hookwire.MethodBeforeTool, `{"tool":"shell","arguments":{"command":"echo 'rm -rf /'"}}`)
	ask(hookwire.MethodBeforeTool, `{"tool":"shell","arguments":{"command":"ls"}}`)
	ask(hookwire.MethodAfterTool, `{"tool":"read_file","arguments":{"path":".env"},"result":{"for_llm":"SECRET_KEY=abc123"}}`)
	ask(hookwire.MethodApproveTool, `{"tool":"read_file","arguments":{"path":".env"},"tool_kind":"readonly"}`)
	ask(hookwire.MethodApproveTool, `{"tool":"shell","arguments":{"command":"ls"},"tool_kind":"execute"}`)
	// Output:
	// [tool approve]
	// {"action":"deny_tool","reason":"dangerous command: rm -rf /"}
	// {"action":"deny_tool","reason":"dangerous command: sudo rm --recursive /"}
	// {"action":"continue"}
	// {"action":"continue"}
	// {"action":"modify","result":{"tool":"read_file","arguments":{"path":".env"},"result":{"for_llm":"SECRET_KEY=***"}}}
	// {"approved":true}
	// {"approved":false,"abstain":true}
}

// The callbacks of an event run in order, each on the input as the one
// before left it; the first skip or abort stops the rest; a callback that
// fails counts as continue (the log, on stderr, says why).
func ExampleHooks() {
	h := lifecycle.New("chain", lifecycle.Options{Hooks: lifecycle.Hooks{lifecycle.PreToolUse: {
		func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			text, _ := in.ToolInput["text"].(string)
			return lifecycle.Output{ModifiedInput: map[string]any{"text": strings.ToUpper(text)}}, nil
		},
		func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			return lifecycle.Output{}, fmt.Errorf("monitoring is down")
		},
		func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			fmt.Println("third sees", in.ToolInput)
			if in.ToolInput["text"] == "STOP" {
				return lifecycle.Output{Action: lifecycle.Abort, Reason: "told to stop"}, nil
			}
			return lifecycle.Output{}, nil
		},
		func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			fmt.Println("fourth runs")
			return lifecycle.Output{}, nil
		},
	}}})
	h.Logger = discard // keep the failure's log line out of the output
	for _, text := range []string{"hello", "stop"} {
		res, _ := h.Call(context.Background(), hookwire.MethodBeforeTool, hookwire.BeforeToolParams{Tool: "echo_text", Arguments: map[string]any{"text": text}})
		fmt.Println(string(res))
	}
	// Output:
	// third sees map[text:HELLO]
	// fourth runs
	// {"action":"modify","call":{"tool":"echo_text","arguments":{"text":"HELLO"}}}
	// third sees map[text:STOP]
	// {"action":"abort_turn","reason":"told to stop"}
}

// canUseTool's verdicts on the wire. An allow with updated input needs a
// host that announced approve_tool.arguments in its hello: to any other,
// the call is denied, since running it as it came is not what was allowed.
func ExampleCanUseTool() {
	h := lifecycle.New("dry-run", lifecycle.Options{
		CanUseTool: func(ctx context.Context, toolName string, input map[string]any, opts lifecycle.CanUseToolOptions) (lifecycle.PermissionResult, error) {
			switch {
			case opts.ToolKind == hookwire.ToolKindReadonly:
				return lifecycle.PermissionResult{Behavior: lifecycle.Allow}, nil
			case toolName == "shell":
				return lifecycle.PermissionResult{Behavior: lifecycle.Allow, UpdatedInput: map[string]any{"command": fmt.Sprint(input["command"], " --dry-run")}}, nil
			case len(opts.AffectedPaths) > 0:
				return lifecycle.PermissionResult{Behavior: lifecycle.Deny, Message: "no writes to " + strings.Join(opts.AffectedPaths, ", ")}, nil
			}
			return lifecycle.PermissionResult{Behavior: lifecycle.Ask}, nil
		},
	})
	ask := func(params string) {
		res, _ := h.Call(context.Background(), hookwire.MethodApproveTool, []byte(params))
		fmt.Println(string(res))
	}
	ask(`{"tool":"read_file","arguments":{"path":"a.txt"},"tool_kind":"readonly"}`)
	ask(`{"tool":"write_file","arguments":{"path":"a.txt"},"tool_kind":"write","affected_paths":["/w/a.txt"]}`)
	ask(`{"tool":"notify","arguments":{}}`)
	ask(`{"tool":"shell","arguments":{"command":"make"},"tool_kind":"execute"}`)
	h.Call(context.Background(), hookwire.MethodHello, []byte(`{"name":"dry-run","version":1,"modes":["approve"],"extensions":["approve_tool.abstain","approve_tool.arguments"]}`))
	ask(`{"tool":"shell","arguments":{"command":"make"},"tool_kind":"execute"}`)
	// Output:
	// {"approved":true}
	// {"approved":false,"reason":"no writes to /w/a.txt"}
	// {"approved":false,"abstain":true}
	// {"approved":false,"reason":"canUseTool allowed shell with updated input, which this host cannot apply (it does not announce approve_tool.arguments)"}
	// {"approved":true,"arguments":{"command":"make --dry-run"}}
}

// Sessions start at the first call or event of their key and end at
// agent.session.end, or, when the host sends no session events, when the
// hook stops.
func ExampleEvent() {
	say := func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
		fmt.Println(in.Event, in.SessionID)
		return lifecycle.Output{}, nil
	}
	h := lifecycle.New("sessions", lifecycle.Options{Hooks: lifecycle.Hooks{
		lifecycle.SessionStart: {say},
		lifecycle.TaskCompleted: {func(ctx context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			fmt.Println(in.Event, in.SessionID, string(in.Payload))
			return lifecycle.Output{}, nil
		}},
		lifecycle.SessionEnd: {say},
	}})
	event := func(kind, session string) {
		h.Call(context.Background(), hookwire.MethodRuntimeEvent, []byte(`{"kind":"`+kind+`","source":{},"scope":{"session_key":"`+session+`"},"payload":{"SessionKey":"`+session+`"}}`))
	}
	event("agent.session.start", "alice")
	event("agent.turn.end", "alice")
	event("agent.session.end", "alice")
	// Output:
	// SessionStart alice
	// TaskCompleted alice {"SessionKey":"alice"}
	// SessionEnd alice
}
