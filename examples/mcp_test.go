package examples

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession starts `hookwire mcp` on the hook of a hooks.json, as an MCP
// host would, and connects the MCP Go SDK's client to it.
func mcpSession(t *testing.T, hooksFile string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hooks, _ := config(t, hooksFile)
	h := hooks[0]
	cmd := exec.Command(cli, append([]string{"mcp", "--name", h.Name, "--"}, h.Command...)...)
	cmd.Dir, cmd.Env = h.Dir, environ(h.Env)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "examples-test", Version: "1"}, opts)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("hookwire mcp -- %s: %v", strings.Join(h.Command, " "), err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("content %T is not text", c)
		}
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n")
}

// The weather hook, as the plain script of PicoClaw's guide and in each
// SDK, serves get_weather over MCP unchanged: listed with its schema, and
// answered as the hook answers it in before_tool.
func TestHookwireMCPServesTheWeatherToolOfEveryWeatherHook(t *testing.T) {
	for _, hooksFile := range []string{
		filepath.Join("weather", "hooks.json"),
		filepath.Join("weather", "python", "hooks.json"),
		filepath.Join("weather", "typescript", "hooks.json"),
		filepath.Join("weather", "go", "hooks.json"),
	} {
		t.Run(filepath.Dir(hooksFile), func(t *testing.T) {
			ctx := context.Background()
			session := mcpSession(t, hooksFile, nil)
			if caps := session.InitializeResult().Capabilities; caps.Tools == nil {
				t.Fatalf("the server does not announce tools: %+v", caps)
			}
			list, err := session.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Tools) != 1 || list.Tools[0].Name != "get_weather" {
				t.Fatalf("tools/list gave %+v, want get_weather alone", list.Tools)
			}
			tool := list.Tools[0]
			if tool.Description != "Query weather information for a specified city" {
				t.Errorf("description %q", tool.Description)
			}
			schema, _ := tool.InputSchema.(map[string]any)
			props, _ := schema["properties"].(map[string]any)
			city, _ := props["city"].(map[string]any)
			if schema["type"] != "object" || city["type"] != "string" {
				t.Errorf("input schema %v has no string city", tool.InputSchema)
			}

			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Beijing"}})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := text(t, res), "Beijing weather: Sunny, temperature 15°C, humidity 45%"; got != want || res.IsError {
				t.Errorf("get_weather Beijing = %q (isError %v), want %q", got, res.IsError, want)
			}

			res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Atlantis"}})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := text(t, res), "Weather data not found for city Atlantis"; got != want || !res.IsError {
				t.Errorf("get_weather Atlantis = %q (isError %v), want %q as an error", got, res.IsError, want)
			}
		})
	}
}
