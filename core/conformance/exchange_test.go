package conformance_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/wire"
)

var exchangesDir = filepath.Join("..", "..", "schema", "testdata", "exchanges")

func exchange(t *testing.T, name string) conformance.Exchange {
	t.Helper()
	all, err := conformance.LoadExchanges(exchangesDir)
	require.NoError(t, err)
	for _, x := range all {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no exchange vector %s", name)
	return conformance.Exchange{}
}

// The Go SDK's reference hook plays every exchange vector as written.
func TestEveryExchangeVectorPassesWithTheGoReferenceHook(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reference")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "sdk-go", "testdata", "reference")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	all, err := conformance.LoadExchanges(exchangesDir)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(all), 20)
	for _, x := range all {
		t.Run(x.Name, func(t *testing.T) {
			t.Parallel()
			assert.NoError(t, x.Run(context.Background(), wire.Command{Argv: []string{bin}}, conformance.Options{}))
		})
	}
}

// A hook that drops the request of id 0 (it takes it for a notification)
// fails the ids vector, which names the line it did not write.
func TestAHookThatDropsIdZeroFailsTheIdsVector(t *testing.T) {
	x := exchange(t, "ids")
	var kept []string
	for _, line := range x.Out {
		if !strings.Contains(line, `"id":0,`) {
			kept = append(kept, line)
		}
	}
	require.Len(t, kept, len(x.Out)-1)
	script := "cat >/dev/null; printf '%s\\n' \"$@\""
	err := x.Run(context.Background(), wire.Command{Argv: append([]string{"sh", "-c", script, "sh"}, kept...)}, conformance.Options{})
	require.Error(t, err)
	assert.Equal(t, `did not write: {"jsonrpc":"2.0","id":0,"result":{"action":"continue"}}`, err.Error())
}

func TestALineTheVectorDoesNotExpectFailsIt(t *testing.T) {
	x := exchange(t, "notifications")
	lines := append([]string{`{"jsonrpc":"2.0","id":null,"result":{}}`}, x.Out...)
	script := "cat >/dev/null; printf '%s\\n' \"$@\""
	err := x.Run(context.Background(), wire.Command{Argv: append([]string{"sh", "-c", script, "sh"}, lines...)}, conformance.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `wrote a line not expected: {"jsonrpc":"2.0","id":null,"result":{}}`)
}
