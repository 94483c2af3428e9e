package mcptool

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/runtime"
)

// substitute does to Input what Claude Code 2.1.331 does to an mcp_tool
// hook's input: ${path} in each string becomes that member of the hook
// input, an object or other non-string as its JSON, a missing one empty.
func substitute(v any, input map[string]any) any {
	switch v := v.(type) {
	case string:
		return regexp.MustCompile(`\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}`).ReplaceAllStringFunc(v, func(m string) string {
			value, ok := input[m[2:len(m)-1]]
			switch {
			case !ok || value == nil:
				return ""
			case isString(value):
				return value.(string)
			}
			data, _ := json.Marshal(value)
			return string(data)
		})
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = substitute(e, input)
		}
		return out
	}
	return v
}

func isString(v any) bool { _, ok := v.(string); return ok }

func TestTheToolsArgumentsGiveBackTheHookInput(t *testing.T) {
	input := map[string]any{"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": "/p", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": "a\n"}, "stop_hook_active": true}
	args, _ := json.Marshal(substitute(Input(agents.ClaudeCode.Install.MCPTool), input))
	data, err := Event(args)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(data, &got)
	want, _ := json.Marshal(input)
	if again, _ := json.Marshal(got); string(again) != string(want) {
		t.Errorf("the event is\n%s\nwant\n%s", again, want)
	}
}

// mcpClient speaks MCP's JSON lines to Serve, as Claude Code does.
type mcpClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Scanner
	id  int
}

func (c *mcpClient) call(method string, params any) map[string]any {
	c.t.Helper()
	c.id++
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	c.in.Write(append(line, '\n'))
	for c.out.Scan() {
		var reply map[string]any
		if json.Unmarshal(c.out.Bytes(), &reply) == nil && reply["id"] == float64(c.id) {
			return reply
		}
	}
	c.t.Fatalf("%s: no reply", method)
	return nil
}

// The server answers each call with the command hook's reply, and a call
// it cannot read blocks as a guard's would: it never answers with nothing.
func TestTheMCPServerAnswersAsTheCommandHookAndBlocksWhatItCannotRead(t *testing.T) {
	guard := `import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {"ok": True, "modes": ["tool"]} if msg["method"] == "hook.hello" else {"action": "deny_tool", "reason": "the guard says no"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, bridge.ServeOptions{Agent: bridge.Agents["claude-code"], Process: runtime.ProcessConfig{Command: []string{"python3", "-c", guard}}}, inR, outW, io.Discard)
		outW.Close()
	}()
	c := &mcpClient{t: t, in: inW, out: bufio.NewScanner(outR)}
	c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "test", "version": "1"}})
	c.in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	text := func(reply map[string]any) string {
		b, _ := json.Marshal(reply["result"])
		return string(b)
	}
	event := substitute(Input(agents.ClaudeCode.Install.MCPTool), map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf x"}})
	if got := text(c.call("tools/call", map[string]any{"name": Tool, "arguments": event})); !strings.Contains(got, `\"permissionDecision\":\"deny\"`) || !strings.Contains(got, "the guard says no") {
		t.Errorf("a PreToolUse the guard denies: %s", got)
	}
	if got := text(c.call("tools/call", map[string]any{"name": Tool, "arguments": map[string]any{"text": 7}})); !strings.Contains(got, `\"decision\":\"block\"`) || strings.Contains(got, `"isError":true`) {
		t.Errorf("arguments that are not an event: %s", got)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// Whatever arguments the agent sends with a call, Event never panics, and
// what it accepts gives back valid JSON holding each non-empty text member
// as it came (a member under json of the same name takes its place).
func FuzzEvent(f *testing.F) {
	f.Add([]byte(`{"text":{"hook_event_name":"PreToolUse","tool_name":"Bash"},"json":{"tool_input":"{\"command\":\"rm -rf /\"}","tool_response":""}}`))
	f.Add([]byte(`{"text":{"a":"\u0000"},"json":{"b":"not json","c":"[1,{\"d\":null}]"}}`))
	f.Add([]byte(`{"text":null,"json":{"x":"1e400"}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, arguments []byte) {
		out, err := Event(arguments)
		if err != nil {
			return
		}
		var event map[string]any
		if err := json.Unmarshal(out, &event); err != nil {
			t.Fatalf("Event(%q) wrote what is not a JSON object: %q (%v)", arguments, out, err)
		}
		var args struct{ Text, JSON map[string]string }
		if json.Unmarshal(arguments, &args) != nil {
			return
		}
		for k, v := range args.Text {
			if _, shadowed := args.JSON[k]; v == "" || shadowed {
				continue
			}
			if event[k] != v && strings.ToValidUTF8(v, "\uFFFD") == v {
				t.Fatalf("text member %q: %q came back as %v", k, v, event[k])
			}
		}
	})
}

// Codex CLI 0.171.0 puts a member's own JSON value where ${member} is the
// whole string (an object stays an object, a null stays null): the hook
// input comes back the same.
func TestCodexsArgumentsGiveBackTheHookInput(t *testing.T) {
	args := []byte(`{"text":{"hook_event_name":"PreToolUse","session_id":"s1","turn_id":"t1","transcript_path":null,"tool_name":"Bash"},` +
		`"json":{"tool_input":{"command":"rm -rf /"}}}`)
	data, err := Event(args)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hook_event_name":"PreToolUse","session_id":"s1","tool_input":{"command":"rm -rf /"},"tool_name":"Bash","turn_id":"t1"}`
	if string(data) != want {
		t.Errorf("the event is\n%s\nwant\n%s", data, want)
	}
}
