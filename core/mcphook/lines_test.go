package mcphook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/internal/testlog"
)

// readAll passes in through a Stdio that answers the calls of the tool
// "direct" itself and nothing else, and returns what the SDK would read and
// what the client was told (with the direct answers written by then).
func readAll(t testing.TB, in string) (passed []string, told func() []string) {
	var out testlog.Buffer
	s := NewStdio(strings.NewReader(in), &out, func([]byte, string) {})
	s.AnswerTool("direct", echo)
	s.wait = 0 // nothing answers here
	got, err := io.ReadAll(stdioReader{s})
	require.NoError(t, err)
	return lines(string(got)), func() []string { return lines(out.String()) }
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestEachLineThatIsNotAJSONRPCMessageIsAnsweredWithTheSpecsError(t *testing.T) {
	for line, want := range map[string]string{
		`this is not JSON`: `{"error":{"code":-32700,"message":"parse error: the line is not JSON"},"id":null,"jsonrpc":"2.0"}`,
		`[]`:               `{"error":{"code":-32600,"message":"invalid request: not a JSON object"},"id":null,"jsonrpc":"2.0"}`,
		`{}`:               `{"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" is not \"2.0\""},"id":null,"jsonrpc":"2.0"}`,
		`null`:             `{"error":{"code":-32600,"message":"invalid request: not a JSON object"},"id":null,"jsonrpc":"2.0"}`,
		`7`:                `{"error":{"code":-32600,"message":"invalid request: not a JSON object"},"id":null,"jsonrpc":"2.0"}`,
		`"ping"`:           `{"error":{"code":-32600,"message":"invalid request: not a JSON object"},"id":null,"jsonrpc":"2.0"}`,
		`{"jsonrpc":"1.0","id":4,"method":"ping"}`:   `{"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" is not \"2.0\""},"id":4,"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`:  `{"error":{"code":-32600,"message":"invalid request: the id is not a string or an integer"},"id":null,"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`: `{"error":{"code":-32600,"message":"invalid request: the id is not a string or an integer"},"id":null,"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":"a","method":7}`:      `{"error":{"code":-32600,"message":"invalid request: \"method\" is not a string"},"id":"a","jsonrpc":"2.0"}`,
	} {
		passed, told := readAll(t, line+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		assert.Equal(t, []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, passed, line)
		assert.Equal(t, []string{want}, told(), line)
	}
}

func TestALineOverTheLimitIsAnsweredForItsIdAndTheNextPasses(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"` + strings.Repeat("a", MaxLineSize) + `"}}`
	passed, told := readAll(t, long+"\n"+`{"jsonrpc":"2.0","method":"ok"}`+"\n")
	assert.Equal(t, []string{`{"jsonrpc":"2.0","method":"ok"}`}, passed)
	assert.Equal(t, []string{`{"error":{"code":-32600,"message":"the message is over 67108864 bytes"},"id":12,"jsonrpc":"2.0"}`}, told())
}

// Whatever the client sends, the MCP SDK is given only whole JSON-RPC
// objects, one per line, in order; every other line that is not blank is
// answered, with one line: refused, or a call of the tool Stdio answers.
func FuzzStdio(f *testing.F) {
	for _, seed := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"]}\n{\"a\":1}\n",
		"]\n[\n{\n\"\n",
		"{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"x\"}\n",
		strings.Repeat("[", 1000) + "\n",
		"1e999\n-\n{\"jsonrpc\":\"2.0\",\"id\":1e3,\"method\":\"x\"}\n",
		`{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"direct","arguments":{"a":[1]}}}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"direct","arguments":7}}` + "\n" +
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"other"}}` + "\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		passed, told := readAll(t, in)
		blank := 0
		for _, l := range strings.Split(in, "\n") {
			if len(bytes.TrimSpace([]byte(l))) == 0 {
				blank++
			}
		}
		// The direct answers are written in goroutines of their own.
		want := len(strings.Split(in, "\n")) - blank
		for deadline := time.Now().Add(5 * time.Second); len(passed)+len(told()) < want && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		assert.Equal(t, want, len(passed)+len(told()))
		for _, l := range passed {
			var msg map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &msg))
			assert.Equal(t, "2.0", msg["jsonrpc"])
		}
		for _, l := range told() {
			var msg map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &msg))
		}
	})
}

// The calls of the tool a Stdio answers itself get the reply the SDK would
// have written for the same result, and never reach the SDK; a call of
// another tool does, and input that ends waits for both replies.
func TestTheToolStdioAnswersItselfIsAnsweredAsTheSDKWouldWithoutIt(t *testing.T) {
	var sdkCalls []string
	handler := func(name string) mcp.ToolHandler {
		return func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			sdkCalls = append(sdkCalls, name)
			return echo(req.Params.Arguments), nil
		}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, name := range []string{"direct", "other"} {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, handler(name))
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"direct","arguments":{"say":"hi \u003c"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"other","arguments":{"say":"hi \u003c"}}}`,
	}, "\n") + "\n"
	var out testlog.Buffer
	s := NewStdio(strings.NewReader(in), &out, func([]byte, string) {})
	s.AnswerTool("direct", echo)
	require.NoError(t, srv.Run(context.Background(), s.Transport()))

	replies := map[string]string{}
	for _, l := range lines(out.String()) {
		var reply struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &reply), l)
		replies[string(reply.ID)] = string(reply.Result)
	}
	assert.Equal(t, []string{"other"}, sdkCalls)
	require.Contains(t, replies, `"a"`)
	require.Contains(t, replies, `3`)
	assert.JSONEq(t, replies[`3`], replies[`"a"`])
	assert.Contains(t, replies[`"a"`], `"isError":true`)
}

// The input's end waits for the reply to a call Stdio answers itself, as
// for one of the SDK's, and no longer.
func TestTheEndOfInputWaitsForTheToolStdioAnswersItself(t *testing.T) {
	release := make(chan struct{})
	var out testlog.Buffer
	s := NewStdio(strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"direct","arguments":{}}}`+"\n"), slowWriter{&out}, func([]byte, string) {})
	s.AnswerTool("direct", func(arguments json.RawMessage) *mcp.CallToolResult {
		<-release
		return echo(arguments)
	})
	passed := endOfInputAfter(t, s, func() { close(release) })
	assert.Empty(t, passed, "the SDK was given the call")
	assert.Contains(t, out.String(), `"id":7`)
}

// TestTheEndOfInputWaitsForTheSDKsReplyToBeWritten: the server ends at
// the end of its input, once every request has its reply, so a reply
// counts once it is written, not as it starts to be.
func TestTheEndOfInputWaitsForTheSDKsReplyToBeWritten(t *testing.T) {
	var out testlog.Buffer
	s := NewStdio(strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`+"\n"), slowWriter{&out}, func([]byte, string) {})
	passed := endOfInputAfter(t, s, func() {
		go stdioWriter{s}.Write([]byte(`{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}` + "\n"))
	})
	assert.Contains(t, string(passed), `"id":3`, "the SDK was not given the request")
	assert.Contains(t, out.String(), `"id":3`, "the input ended before the reply was written")
}

// endOfInputAfter reads s to its end, which must not come before answer
// is called, and must come within 10 s after; it returns what the SDK
// would have read.
func endOfInputAfter(t *testing.T, s *Stdio, answer func()) []byte {
	t.Helper()
	ended := make(chan []byte)
	go func() {
		passed, _ := io.ReadAll(stdioReader{s})
		ended <- passed
	}()
	select {
	case <-ended:
		t.Fatal("the input ended before the request was answered")
	case <-time.After(100 * time.Millisecond):
	}
	answer()
	select {
	case passed := <-ended:
		return passed
	case <-time.After(10 * time.Second):
		t.Fatal("the input did not end once the request was answered")
		return nil
	}
}

// slowWriter writes to w a moment late, as a full pipe does.
type slowWriter struct{ w io.Writer }

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(50 * time.Millisecond)
	return s.w.Write(p)
}

// echo is a tool's result that says its arguments, an error as the SDK
// marks one.
func echo(arguments json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(arguments)}}, IsError: true}
}
