package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/hookwire/core/protocol"
)

// MCPServer is an MCP server whose tools the agent offers the LLM, run over
// stdio, in the shape of an entry of PicoClaw's tools.mcp.servers.
type MCPServer struct {
	// Command is the program; it is run directly, with no shell.
	Command string `json:"command"`
	// Args are its arguments.
	Args []string `json:"args"`
	// Env holds variables set on top of the agent's environment.
	Env map[string]string `json:"env"`
	// Dir is its working directory, relative to the scenario file; the
	// scenario's folder when empty.
	Dir string `json:"dir"`
}

// ConnectMCP starts the scenario's MCP servers and returns their tools, in
// server then tool name order, and a function that stops them all.
func (s Scenario) ConnectMCP(ctx context.Context) ([]Tool, func() error, error) {
	var sessions []*mcp.ClientSession
	closeAll := func() error {
		var errs []error
		for _, s := range sessions {
			errs = append(errs, s.Close())
		}
		return errors.Join(errs...)
	}
	var tools []Tool
	for _, name := range slices.Sorted(maps.Keys(s.MCPServers)) {
		server := s.MCPServers[name]
		cmd := exec.Command(server.Command, server.Args...)
		cmd.Dir, cmd.Stderr = server.Dir, os.Stderr
		cmd.Env = os.Environ()
		for _, k := range slices.Sorted(maps.Keys(server.Env)) {
			cmd.Env = append(cmd.Env, k+"="+server.Env[k])
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "hookwire-agent", Version: "1"}, nil)
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("mcp_servers.%s: %w", name, err)
		}
		sessions = append(sessions, session)
		for tool, err := range session.Tools(ctx, nil) {
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("mcp_servers.%s: tools/list: %w", name, err)
			}
			tools = append(tools, MCPTool{Server: name, Session: session, Tool: tool})
		}
	}
	return tools, closeAll, nil
}

// MCPTool is a tool of an MCP server, run by calling it there.
type MCPTool struct {
	// Server names the server, as in the scenario.
	Server  string
	Session *mcp.ClientSession
	Tool    *mcp.Tool
}

func (t MCPTool) Definition() protocol.ToolDefinition {
	params, _ := t.Tool.InputSchema.(map[string]any)
	return function(t.Tool.Name, t.Tool.Description, params)
}

// Run calls the tool: its text content is what the LLM sees, its resource
// links are the result's media.
func (t MCPTool) Run(ctx context.Context, args map[string]any) protocol.ToolResult {
	res, err := t.Session.CallTool(ctx, &mcp.CallToolParams{Name: t.Tool.Name, Arguments: args})
	if err != nil {
		return failure(fmt.Sprintf("%s (MCP server %s): %v", t.Tool.Name, t.Server, err))
	}
	var text []string
	var out protocol.ToolResult
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			text = append(text, c.Text)
		case *mcp.ResourceLink:
			out.Media = append(out.Media, c.URI)
		}
	}
	out.ForLLM = strings.Join(text, "\n")
	if res.IsError {
		out.IsError = ptr(true)
	}
	return out
}

// resolveMCP makes the servers' dirs absolute, from the scenario's folder.
func (s *Scenario) resolveMCP(folder string) {
	for name, server := range s.MCPServers {
		if !filepath.IsAbs(server.Dir) {
			server.Dir = filepath.Join(folder, server.Dir)
		}
		s.MCPServers[name] = server
	}
}
