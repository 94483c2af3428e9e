// Package mcptool serves a bridge session as a stdio MCP server, for an
// agent that calls a tool of an MCP server as a hook (Claude Code's
// mcp_tool hooks, agents.MCPTool): the agent starts the server once, as
// its child, for the whole session, and asks it each event; the server
// answers with the reply the command hook would have written
// (bridge.Warm). No process starts per event, and no port or socket is
// opened: the agent holds the only end of the server's stdin and stdout.
//
// It is apart from core/bridge so that hookwire-bridge, started for every
// event, does not link the MCP SDK.
package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/mcphook"
)

// Server is the name the agent's settings give the MCP server, and Tool
// the name of its one tool, which hooks name.
const (
	Server = "hookwire"
	Tool   = "event"
)

// Input is the input of the agent's mcp_tool hook: each member of the hook
// input the agent writes, as ${member}, under "text" for strings and
// "json" for the others (which arrive as their JSON text).
func Input(mt *agents.MCPTool) map[string]any {
	group := func(members []string) map[string]any {
		out := map[string]any{}
		for _, m := range members {
			out[m] = "${" + m + "}"
		}
		return out
	}
	return map[string]any{"text": group(mt.Text), "json": group(mt.JSON)}
}

// Event is the hook input again, from the arguments of a call made with
// Input: an empty value is a member the event does not have, and a value
// under "json" that is not JSON stays the string it is (a tool's response
// may be a string). A value under "json" that is not a string is taken as
// it is: an agent may put a member's own JSON value where ${member} is the
// whole string.
func Event(arguments json.RawMessage) ([]byte, error) {
	var args struct {
		Text map[string]string          `json:"text"`
		JSON map[string]json.RawMessage `json:"json"`
	}
	if err := json.Unmarshal(arguments, &args); err != nil {
		return nil, fmt.Errorf("the arguments of %s are not the hook input as the hook's input writes it (text, an object of strings, and json): %w", Tool, err)
	}
	fields := map[string]any{}
	for k, v := range args.Text {
		if v != "" {
			fields[k] = v
		}
	}
	for k, raw := range args.JSON {
		var value any
		if json.Unmarshal(raw, &value) != nil || value == nil || value == "" {
			continue
		}
		if s, ok := value.(string); ok && json.Unmarshal([]byte(s), &value) != nil {
			value = s
		}
		fields[k] = value
	}
	return json.Marshal(fields)
}

// Serve runs the session's hook and serves it as an MCP server on in and
// out until the agent closes in, ctx ends, or the hook is down for good;
// what the agent sends that is not MCP is told on logTo.
func Serve(ctx context.Context, opts bridge.ServeOptions, in io.Reader, out, logTo io.Writer) error {
	return bridge.Warm(ctx, opts, func(ctx context.Context, answer func([]byte) (string, error)) error {
		call := func(arguments json.RawMessage) *mcp.CallToolResult {
			event, err := Event(arguments)
			if err != nil {
				// Read as an event that names none: blocked, as a guard's.
				fmt.Fprintf(logTo, "hookwire bridge --mcp: %v\n", err)
				event = []byte("{}")
			}
			output, err := answer(event)
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: output}}}
		}
		srv := mcp.NewServer(&mcp.Implementation{Name: "hookwire-bridge", Version: "1"}, nil)
		srv.AddTool(&mcp.Tool{
			Name:        Tool,
			Description: "Answers one event of " + opts.Agent.Title + "'s hooks with the hook's JSON output. Only its hooks call it.",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{
				"text": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
				"json": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
			}},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return call(req.Params.Arguments), nil
		})
		stdio := mcphook.NewStdio(in, out, func(line []byte, why string) {
			fmt.Fprintf(logTo, "hookwire bridge --mcp: refused a line from the agent: %s: %.200q\n", why, line)
		})
		// Each event is a call of the tool: answered on the shortest path.
		stdio.AnswerTool(Tool, call)
		if err := srv.Run(ctx, stdio.Transport()); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
			return err
		}
		return nil
	})
}

// Hook is the agent's mcp_tool hook that asks the server about an event,
// within timeout. A guard's blocks the call when the server cannot answer
// (not connected, gone, an error, past its timeout); another event's goes
// on, its failure reported.
func Hook(mt *agents.MCPTool, guard bool, timeout time.Duration) map[string]any {
	h := map[string]any{"type": "mcp_tool", "server": Server, "tool": Tool, "input": Input(mt), "timeout": int(timeout.Seconds())}
	if guard {
		h["onFailure"] = "block"
	}
	return h
}

// ServerEntry is the MCP server's entry in the agent's configuration: a
// stdio server the agent starts, argv.
func ServerEntry(argv []string) map[string]any {
	return map[string]any{"type": "stdio", "command": argv[0], "args": argv[1:]}
}
