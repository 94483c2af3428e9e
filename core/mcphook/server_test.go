package mcphook_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/internal/testbin"
	"github.com/hookwire/hookwire/core/mcphook"
	"github.com/hookwire/hookwire/core/runtime"
)

var fixture string

func TestMain(m *testing.M) { testbin.Main(m, "./testdata/fixture", &fixture) }

// serve runs a server for the fixture hook started with args, connected in
// memory; it is stopped when the test ends.
func serve(t *testing.T, args ...string) (*mcphook.Server, *mcp.InMemoryTransport) {
	t.Helper()
	srv, err := mcphook.New(mcphook.Options{
		Name:    "fixture",
		Process: runtime.ProcessConfig{Command: append([]string{fixture}, args...), Restart: runtime.RestartConfig{BackoffMS: 10}},
		Runtime: runtime.Options{Logger: slog.New(slog.DiscardHandler)},
	})
	require.NoError(t, err)
	client, server := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.Run(ctx, server) }()
	t.Cleanup(func() { cancel(); <-done })
	return srv, client
}

func connect(t *testing.T, transport mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { session.Close() })
	return session
}

func call(t *testing.T, s *mcp.ClientSession, tool, text string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": text}})
	require.NoError(t, err)
	return res
}

func firstText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func TestAHookThatDoesNotStartFailsInitializeWithItsLastStderrLine(t *testing.T) {
	_, transport := serve(t, "fail-start")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, transport, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "fixture: cannot read its settings file")
}

func TestARespondIsTheToolResultWithItsMediaAsResourceLinks(t *testing.T) {
	_, transport := serve(t)
	res := call(t, connect(t, transport, nil), "echo", "hi")
	assert.False(t, res.IsError)
	require.Len(t, res.Content, 2)
	assert.Equal(t, "echo: hi", firstText(res))
	link, ok := res.Content[1].(*mcp.ResourceLink)
	require.True(t, ok, "content %T", res.Content[1])
	assert.Equal(t, "media://abc", link.URI)
}

func TestADenialAndAPassAreErrorResultsThatSaySo(t *testing.T) {
	_, transport := serve(t)
	s := connect(t, transport, nil)
	denied := call(t, s, "deny", "")
	assert.True(t, denied.IsError)
	assert.Equal(t, "hook fixture denied deny: not today", firstText(denied))
	passed := call(t, s, "pass", "")
	assert.True(t, passed.IsError)
	assert.Contains(t, firstText(passed), "hook fixture does not answer pass")
}

func TestACrashMidCallIsAnErrorResultAndTheHookIsRestarted(t *testing.T) {
	_, transport := serve(t)
	s := connect(t, transport, nil)
	crashed := call(t, s, "crash", "")
	assert.True(t, crashed.IsError)
	assert.Contains(t, firstText(crashed), "crash")
	// The next call waits out the restart and is answered.
	assert.Equal(t, "echo: again", firstText(call(t, s, "echo", "again")))
}

func TestANewToolOfTheHookIsAnnouncedWithListChanged(t *testing.T) {
	_, transport := serve(t)
	changed := make(chan struct{}, 10)
	s := connect(t, transport, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	ctx := context.Background()
	list, err := s.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, list.Tools, 5)

	call(t, s, "grow", "")
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the hook's tools changed")
	}
	list, err = s.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	assert.Contains(t, names, "grown")
}

// Lines that are not MCP, or not JSON, get the MCP SDK's error replies or
// are dropped; the session goes on and answers the next request.
func TestMalformedMCPInputIsAnsweredOrDroppedAndNeverHangs(t *testing.T) {
	srv, err := mcphook.New(mcphook.Options{
		Name:    "fixture",
		Process: runtime.ProcessConfig{Command: []string{fixture}},
		Runtime: runtime.Options{Logger: slog.New(slog.DiscardHandler)},
	})
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Run(ctx, mcphook.NewStdio(inR, outW, func([]byte, string) {}).Transport())
	}()
	defer func() { cancel(); inW.Close(); <-done }()

	replies := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			replies <- sc.Text()
		}
	}()
	garbage := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize"]}`,
		`]`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":[[[[`,
		`{"jsonrpc":"2.0","id":3,"method":"no/such/method","params":{}}`,
		"\x00\xff",
		strings.Repeat("[", 100000),
	}
	go func() {
		for _, line := range garbage {
			io.WriteString(inW, line+"\n")
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	}()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case line := <-replies:
			if strings.Contains(line, `"id":9`) {
				assert.Contains(t, line, `"serverInfo"`)
				return
			}
		case <-deadline:
			t.Fatal("no answer to initialize after malformed lines")
		}
	}
}
