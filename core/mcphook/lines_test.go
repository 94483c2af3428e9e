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

func readAll(t testing.TB, in string) (passed []string, dropped []string) {
	r := JSONLines(strings.NewReader(in), func(line []byte, why string) { dropped = append(dropped, why) })
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" {
			passed = append(passed, l)
		}
	}
	return passed, dropped
}

func TestLinesThatAreJSONPassInOrderAndTheOthersAreDropped(t *testing.T) {
	in := "{\"a\":1}\n]\n{\"b\":[[[[\n\n  {\"c\":2}  \r\n\x00\xff\n{\"d\":3}"
	passed, dropped := readAll(t, in)
	assert.Equal(t, []string{`{"a":1}`, `{"c":2}`, `{"d":3}`}, passed)
	assert.Len(t, dropped, 3)
}

func TestALineOverTheLimitIsDroppedAndTheNextPasses(t *testing.T) {
	long := `{"x":"` + strings.Repeat("a", MaxLineSize) + `"}`
	passed, dropped := readAll(t, long+"\n{\"ok\":true}\n")
	assert.Equal(t, []string{`{"ok":true}`}, passed)
	assert.Equal(t, []string{"the line is longer than the limit"}, dropped)
}

// Whatever the client sends, the MCP SDK is given only whole JSON values,
// one per line, and every line that is JSON reaches it, in order.
func FuzzJSONLines(f *testing.F) {
	for _, seed := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"]}\n{\"a\":1}\n",
		"]\n[\n{\n\"\n",
		"{\"a\":\"\\ud800\"}\n",
		strings.Repeat("[", 1000) + "\n",
		"1e999\n-\n{\"a\":1,\"a\":2}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		passed, _ := readAll(t, in)
		var want []string
		for _, l := range strings.Split(in, "\n") {
			l = string(bytes.TrimSpace([]byte(l)))
			if l != "" && json.Valid([]byte(l)) {
				want = append(want, l)
			}
		}
		assert.Equal(t, want, passed)
	})
}
