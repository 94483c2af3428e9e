package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession starts `hookwire mcp` on the hook of a hooks.json, as an MCP
// host would, and connects the MCP Go SDK's client to it.
func mcpSession(t *testing.T, hooksFile string) *mcp.ClientSession {
	t.Helper()
	hooks, _ := config(t, hooksFile)
	h := hooks[0]
	cmd := exec.Command(cli, append([]string{"mcp", "--name", h.Name, "--"}, h.Command...)...)
	cmd.Dir, cmd.Env = h.Dir, environ(h.Env)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	// The client's own checks of what the server says are logged as
	// warnings: there must be none, as with the MCP inspector.
	warnings := &warningLog{}
	client := mcp.NewClient(&mcp.Implementation{Name: "examples-test", Version: "1"}, &mcp.ClientOptions{Logger: slog.New(warnings)})
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("hookwire mcp -- %s: %v", strings.Join(h.Command, " "), err)
	}
	t.Cleanup(func() {
		session.Close()
		for _, w := range warnings.get() {
			t.Errorf("the MCP client warned: %s", w)
		}
	})
	return session
}

// warningLog keeps the warnings and errors logged to it.
type warningLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *warningLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines
}

func (l *warningLog) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn
}

func (l *warningLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r.Message)
	return nil
}

func (l *warningLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *warningLog) WithGroup(string) slog.Handler      { return l }

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
			session := mcpSession(t, hooksFile)
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

// A scenario can take tools from MCP servers, as PicoClaw's
// tools.mcp.servers does. Under the picoclaw host, which reverts the tool
// the weather hook adds in before_llm, get_weather still reaches the LLM:
// served by `hookwire mcp` from the same hook, and answered by it through
// MCP.
func TestUnderPicoClawTheWeatherToolReachesTheLLMThroughMCP(t *testing.T) {
	cmd := exec.Command(cli, "run", "--host", "picoclaw", "--json", "--hooks", "hooks.json", "scenario.json")
	cmd.Dir = filepath.Join("weather", "mcp")
	cmd.Env = environ(nil)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookwire run --host picoclaw: %v\n%s", err, stderr.String())
	}
	records := parseTranscript(t, stdout.String())
	if host := ofType(records, "host"); len(host) == 0 || !strings.Contains(host[0].Reason, "added get_weather") {
		t.Errorf("the host did not revert the hook's get_weather: %+v", host)
	}
	var offered []string
	json.Unmarshal([]byte(lineOf(t, stdout.String(), "llm_request")), &struct {
		Tools *[]string `json:"tools"`
	}{&offered})
	if !slices.Equal(offered, []string{"echo_text", "read_file", "get_weather"}) {
		t.Errorf("the LLM was offered %v, want get_weather once, from MCP", offered)
	}
	tools := ofType(records, "tool")
	if len(tools) != 1 || tools[0].Tool != "get_weather" || tools[0].Outcome != "ran" {
		t.Fatalf("get_weather did not run as an MCP tool:\n%s", stdout.String())
	}
	if r := tools[0].Result; r == nil || r.ForLLM != "Beijing weather: Sunny, temperature 15°C, humidity 45%" {
		t.Errorf("get_weather answered %+v", tools[0].Result)
	}
}

// mcpLines runs `hookwire mcp` on the Python weather hook with the lines
// on stdin, closed after them, as `printf ... | hookwire mcp -- ...` does,
// and returns the lines it printed.
func mcpLines(t *testing.T, lines ...string) []string {
	t.Helper()
	cmd := exec.Command(cli, "mcp", "--", "python3", "weather_plugin.py")
	cmd.Dir = filepath.Join("weather", "script")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hookwire mcp: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

const (
	mcpInitialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`
	mcpInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	mcpList        = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

func TestEveryRequestIsAnsweredWhenStdinClosesRightAfterIt(t *testing.T) {
	out := mcpLines(t, mcpInitialize, mcpInitialized, mcpList)
	if len(out) != 2 || !strings.Contains(out[0], `"id":1`) || !strings.Contains(out[0], `"serverInfo"`) ||
		!strings.Contains(out[1], `"id":2`) || !strings.Contains(out[1], `"get_weather"`) {
		t.Errorf("want the replies to initialize and tools/list, and nothing else (no list_changed), got:\n%s", strings.Join(out, "\n"))
	}
}

func TestAMalformedLineIsAnsweredAndTheNextRequestStillIs(t *testing.T) {
	for _, bad := range []string{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, `[]`, `{}`, `null`, `{"jsonrpc":"1.0","id":7,"method":"ping"}`, `42`, `"ping"`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`} {
		out := mcpLines(t, mcpInitialize, mcpInitialized, bad, mcpList)
		all := strings.Join(out, "\n")
		if len(out) != 3 || !strings.Contains(all, `"code":-32600`) || !strings.Contains(all, `"serverInfo"`) || !strings.Contains(all, `"get_weather"`) {
			t.Errorf("after %s: want initialize's reply, an invalid request error, then the tools, got:\n%s", bad, strings.Join(out, "\n"))
		}
	}
}

func TestAnErrorReplyCarriesTheSpecsCode(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":[1]}}`
	out := mcpLines(t, mcpInitialize, mcpInitialized, call)
	if len(out) != 2 || !strings.Contains(out[1], `"id":3`) || strings.Contains(out[1], `"code":0`) || !strings.Contains(out[1], `"code":-326`) {
		t.Errorf("want an error with a JSON-RPC code for id 3, got:\n%s", strings.Join(out, "\n"))
	}
}
