package bridge

import (
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
)

// toolVocabulary is an agent's tools, from schema/tools.json.
type toolVocabulary struct {
	// mcpPrefix starts the name of every MCP tool (Claude Code: mcp__).
	mcpPrefix string
	tools     map[string]toolShape
}

// toolShape is a tool's canonical kind, and the argument that holds each
// canonical member.
type toolShape struct {
	kind, command, path, url, pattern string
}

// canonical is a call of the agent's in words every agent shares: its
// kind, and the arguments that say what it does. An MCP tool is known by
// its name's prefix (Claude Code: mcp__SERVER__TOOL) or by the
// mcp_context of the event (Gemini CLI).
func canonical(agent string, ev Event, tool string, args map[string]any) *protocol.CanonicalTool {
	v := agentTools[agent]
	if mcp := ev.object("mcp_context"); len(mcp) > 0 {
		server, _ := mcp["server_name"].(string)
		return &protocol.CanonicalTool{Kind: "mcp", Server: nonEmpty(server)}
	}
	if v.mcpPrefix != "" && strings.HasPrefix(tool, v.mcpPrefix) {
		server, _, _ := strings.Cut(strings.TrimPrefix(tool, v.mcpPrefix), "__")
		return &protocol.CanonicalTool{Kind: "mcp", Server: nonEmpty(server)}
	}
	s, ok := v.tools[tool]
	if !ok {
		return &protocol.CanonicalTool{Kind: "other"}
	}
	arg := func(name string) *string {
		if text, ok := args[name].(string); ok && name != "" {
			return &text
		}
		return nil
	}
	command := arg(s.command)
	if command == nil && s.command != "" {
		command = commandLines(args[s.command])
	}
	return &protocol.CanonicalTool{Kind: s.kind, Command: command, Path: arg(s.path), URL: arg(s.url), Pattern: arg(s.pattern)}
}

// commandLines reads an argument that holds a list of commands (Cline's
// run_commands), each a command line or a program with its arguments run
// with no shell, as one command line per command: a shell reader sees
// every program the call runs. Nil when it holds none.
func commandLines(v any) *string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var lines []string
	for _, c := range list {
		switch c := c.(type) {
		case string:
			lines = append(lines, c)
		case map[string]any:
			program, _ := c["command"].(string)
			words := []string{shellWord(program)}
			args, _ := c["args"].([]any)
			for _, a := range args {
				text, ok := a.(string)
				if !ok {
					text = fmt.Sprint(a)
				}
				words = append(words, shellWord(text))
			}
			lines = append(lines, strings.Join(words, " "))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	joined := strings.Join(lines, "\n")
	return &joined
}

// shellWord quotes a word for sh: what a program run with no shell gets as
// that argument.
func shellWord(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// rewritten is the arguments of a call a hook modified: those it sent back,
// with each canonical member it changed (a command, path, URL or pattern)
// written in the argument that holds it for the agent's tool, so that a
// hook may rewrite a call in words every agent shares. A member changed
// two ways, or one the tool has no argument for, is an error: the call
// would not do what the hook meant.
func rewritten(agent, tool string, sent, got map[string]any, before, after *protocol.CanonicalTool) (map[string]any, error) {
	if after == nil || before == nil || reflect.DeepEqual(before, after) {
		return got, nil
	}
	shape := agentTools[agent].tools[tool]
	out := maps.Clone(got)
	if out == nil {
		out = map[string]any{}
	}
	for _, m := range []struct {
		member, field string
		was, is       *string
	}{
		{"command", shape.command, before.Command, after.Command},
		{"path", shape.path, before.Path, after.Path},
		{"url", shape.url, before.URL, after.URL},
		{"pattern", shape.pattern, before.Pattern, after.Pattern},
	} {
		if m.is == nil || (m.was != nil && *m.was == *m.is) {
			continue
		}
		if m.field == "" {
			return nil, fmt.Errorf("a hook rewrote the %s of %s, which has no argument for one", m.member, tool)
		}
		if !reflect.DeepEqual(got[m.field], sent[m.field]) && got[m.field] != *m.is {
			return nil, fmt.Errorf("a hook rewrote the %s of %s two ways: %q in canonical, %v in %s", m.member, tool, *m.is, got[m.field], m.field)
		}
		out[m.field] = *m.is
	}
	return out, nil
}
