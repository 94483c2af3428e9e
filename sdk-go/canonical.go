package hookwire

import (
	"fmt"
	"maps"
	"strings"
)

// knownTool is a tool of an agent hookwire knows (schema/tools.json): its
// canonical kind, and the arguments that may hold each canonical member.
type knownTool struct {
	kind string
	args map[string][]string
}

// canonicalTool is the call in words every agent shares: the canonical
// member the host sent, or, from a host that sends none (PicoClaw), what
// the tool's name and arguments say of it. An unknown tool is of kind
// "other".
func canonicalTool(tool string, args map[string]any, sent *CanonicalTool) CanonicalTool {
	if sent != nil {
		return *sent
	}
	for _, prefix := range mcpPrefixes {
		if rest, ok := strings.CutPrefix(tool, prefix); ok {
			server, _, _ := strings.Cut(rest, "__")
			return CanonicalTool{Kind: "mcp", Server: &server}
		}
	}
	known, ok := knownTools[tool]
	if !ok {
		return CanonicalTool{Kind: "other"}
	}
	out := CanonicalTool{Kind: known.kind}
	for member, names := range known.args {
		for _, name := range names {
			if text, ok := args[name].(string); ok {
				switch member {
				case "command":
					out.Command = &text
				case "path":
					out.Path = &text
				case "url":
					out.URL = &text
				case "pattern":
					out.Pattern = &text
				}
				break
			}
		}
	}
	return out
}

// CanonicalTool says what the call is in words every agent shares: its
// kind (shell, read, write, edit, list, search, fetch, web_search, agent,
// mcp, other) and its command, path, URL or search pattern, whether the
// agent calls the tool Bash, run_shell_command or exec.
func (p BeforeToolParams) CanonicalTool() CanonicalTool {
	return canonicalTool(p.Tool, p.Arguments, p.Canonical)
}

// CanonicalTool says what the call is in words every agent shares (see
// BeforeToolParams.CanonicalTool).
func (p ApproveToolParams) CanonicalTool() CanonicalTool {
	return canonicalTool(p.Tool, p.Arguments, p.Canonical)
}

// CanonicalTool says what the call was in words every agent shares (see
// BeforeToolParams.CanonicalTool).
func (p AfterToolParams) CanonicalTool() CanonicalTool {
	return canonicalTool(p.Tool, p.Arguments, p.Canonical)
}

// Rewrite is the one way to change what a call does, whatever the agent
// names the tool: a modify of the call with the command, path, URL or
// search pattern that change sets (its other members are ignored) written
// in the argument that holds it for this tool (schema/tools.json): the
// command of Claude Code's Bash, Gemini CLI's run_shell_command and
// PicoClaw's exec alike. The call's canonical member, when the host sent
// one, says the same. A tool with no known argument for a member, an MCP
// tool say, cannot be rewritten so: the error says which.
//
//	modify, err := call.Rewrite(hookwire.CanonicalTool{Command: hookwire.Ptr("ls -la")})
func (p BeforeToolParams) Rewrite(change CanonicalTool) (BeforeToolModify, error) {
	args := maps.Clone(p.Arguments)
	if args == nil {
		args = map[string]any{}
	}
	var canonical CanonicalTool // what the call's canonical member becomes, if it has one
	if p.Canonical != nil {
		canonical = *p.Canonical
	}
	for _, c := range []struct {
		member string
		value  *string
		slot   **string
	}{
		{"command", change.Command, &canonical.Command},
		{"path", change.Path, &canonical.Path},
		{"url", change.URL, &canonical.URL},
		{"pattern", change.Pattern, &canonical.Pattern},
	} {
		if c.value == nil {
			continue
		}
		name, ok := argumentOf(p.Tool, c.member, p.Arguments)
		if !ok {
			return BeforeToolModify{}, fmt.Errorf("hookwire: cannot rewrite the %s of tool %q: no argument of it is known to hold one (schema/tools.json)", c.member, p.Tool)
		}
		args[name] = *c.value
		*c.slot = Ptr(*c.value)
	}
	p.Arguments = args
	if p.Canonical != nil {
		p.Canonical = &canonical
	}
	return p.Modify(), nil
}

// argumentOf is the argument of tool that holds a canonical member: of
// the names the agents give it, the one the call has, else the first.
func argumentOf(tool, member string, args map[string]any) (string, bool) {
	known, ok := knownTools[tool]
	if !ok || len(known.args[member]) == 0 {
		return "", false
	}
	names := known.args[member]
	for _, name := range names {
		if _, ok := args[name].(string); ok {
			return name, true
		}
	}
	return names[0], true
}
