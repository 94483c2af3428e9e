package bridge

import (
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
	return &protocol.CanonicalTool{Kind: s.kind, Command: arg(s.command), Path: arg(s.path), URL: arg(s.url), Pattern: arg(s.pattern)}
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
