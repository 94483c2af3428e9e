// Package hookwire writes agent hooks: programs that a host such as PicoClaw
// starts and talks to over stdin and stdout in JSON-RPC 2.0, one message per
// line, to watch and steer an agent's LLM calls and tool calls.
//
// A hook registers typed handlers on a [Hook] and calls [Hook.Main] (or
// [Hook.Run]). The SDK answers hook.hello with the modes the handlers need,
// runs requests concurrently, each with a context that is cancelled at
// shutdown, writes each reply as one line, and exits when the host closes
// stdin or sends SIGTERM or SIGINT:
//
//	h := hookwire.New("guard")
//	h.OnBeforeTool(func(ctx context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
//		if call.Tool == "exec" {
//			return hookwire.DenyTool{Reason: "no shell here"}, nil
//		}
//		return hookwire.Continue{}, nil
//	})
//	h.Main()
//
// [AddTool] turns a typed Go function into a tool the LLM can call: the SDK
// declares it in hook.before_llm and answers it in hook.before_tool.
//
// While [Hook.Run] runs, file descriptor 1 points at stderr, so fmt.Println
// and child processes cannot corrupt the protocol, and descriptor 0 at
// /dev/null; the protocol reads and writes duplicates of the original stdin
// and stdout. Log with log/slog: it goes to stderr,
// which the host keeps as the hook's log.
//
// [Hook.Call] runs a hook's handlers in-process, for the hook's own tests.
//
// The sub-package lifecycle speaks the vocabulary of in-process agent SDKs'
// lifecycle hooks (SessionStart, PreToolUse, ... with continue, skip or
// abort, and a canUseTool callback) on top of a Hook.
//
// The protocol types (params, results, [ToolResult], ...) are generated from
// the protocol's JSON Schema. Optional scalars are pointers ([Ptr] makes
// one), and every object keeps the members it does not know in Extra and
// writes them back, because hosts replace a modified object whole.
package hookwire
