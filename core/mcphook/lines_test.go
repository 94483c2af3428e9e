package mcphook

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAll passes in through a Stdio with nothing to answer, and returns
// what the SDK would read and what the client was told.
func readAll(t testing.TB, in string) (passed []string, told []string) {
	var out bytes.Buffer
	s := NewStdio(strings.NewReader(in), &out, func([]byte, string) {})
	s.wait = 0 // nothing answers here
	got, err := io.ReadAll(stdioReader{s})
	require.NoError(t, err)
	return lines(string(got)), lines(out.String())
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
		assert.Equal(t, []string{want}, told, line)
	}
}

func TestALineOverTheLimitIsAnsweredForItsIdAndTheNextPasses(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"` + strings.Repeat("a", MaxLineSize) + `"}}`
	passed, told := readAll(t, long+"\n"+`{"jsonrpc":"2.0","method":"ok"}`+"\n")
	assert.Equal(t, []string{`{"jsonrpc":"2.0","method":"ok"}`}, passed)
	assert.Equal(t, []string{`{"error":{"code":-32600,"message":"the message is over 67108864 bytes"},"id":12,"jsonrpc":"2.0"}`}, told)
}

// Whatever the client sends, the MCP SDK is given only whole JSON-RPC
// objects, one per line, in order; every other line that is not blank is
// answered, with one line.
func FuzzStdio(f *testing.F) {
	for _, seed := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"]}\n{\"a\":1}\n",
		"]\n[\n{\n\"\n",
		"{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"x\"}\n",
		strings.Repeat("[", 1000) + "\n",
		"1e999\n-\n{\"jsonrpc\":\"2.0\",\"id\":1e3,\"method\":\"x\"}\n",
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
		assert.Equal(t, len(strings.Split(in, "\n"))-blank, len(passed)+len(told))
		for _, l := range passed {
			var msg map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &msg))
			assert.Equal(t, "2.0", msg["jsonrpc"])
		}
		for _, l := range told {
			var msg map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &msg))
		}
	})
}
