package hookwire

import "strings"

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
