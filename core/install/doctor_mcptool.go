package install

// mcpToolGuards finds, in an agent's file, the mcp_tool hooks on events
// that guard a tool without onFailure "block": when their MCP server is
// gone, errs or misses the hook's timeout, Claude Code (2.1.331) lets the
// call run, as if no hook were there (docs/bridge-mcp.md).
func (a *Agent) mcpToolGuards(doc *document, file string) []Finding {
	if a.facts().Install.MCPTool == nil {
		return nil
	}
	var out []Finding
	events, _ := hooksObject(doc.find("hooks"))
	for _, event := range events {
		if !a.facts().Events[event].Guard {
			continue
		}
		for _, group := range elements(doc.find("hooks", event)) {
			for _, h := range elements(child(&group, "hooks")) {
				if text(child(&h, "type")) == "mcp_tool" && text(child(&h, "onFailure")) != "block" {
					out = append(out, problem(`add "onFailure": "block" to it`,
						"%s: the mcp_tool hook of %s on %s lets the call run when its MCP server cannot answer (gone, an error, past its timeout)",
						file, text(child(&h, "server")), event))
				}
			}
		}
	}
	return out
}
