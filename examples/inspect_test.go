package examples

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inspector runs `hookwire inspect` on a socket of this test's, which the
// producers started below find through HOOKWIRE_INSPECT_SOCKET, and
// returns the URL it printed.
func inspector(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hwi")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o700)
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("HOOKWIRE_INSPECT_SOCKET", filepath.Join(dir, "inspect.sock"))
	cmd := exec.Command(cli, "inspect")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("hookwire inspect printed no URL: %v", err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "hookwire inspect: "))
}

// inspected are the sessions the inspector at url knows, once n have ended.
func inspected(t *testing.T, url string, n int) []map[string]any {
	t.Helper()
	api := strings.Replace(url, "/?token=", "/api/sessions?token=", 1)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var list []map[string]any
		resp, err := http.Get(api)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		ended := 0
		for _, s := range list {
			if s["ended"] == true {
				ended++
			}
		}
		if ended >= n {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inspector knows %v, want %d ended sessions", list, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Each producer publishes its session to a running inspector: the bridge
// (a Claude Code session), hookwire mcp and hookwire tap.
func TestInspectSeesTheBridgeTheMCPServerAndTheTap(t *testing.T) {
	url := inspector(t)

	b := newBridgeRun(t, "claude-code", referenceHooks(t)["python"])
	for _, event := range []string{"SessionStart", "PreToolUse", "SessionEnd"} {
		b.call(t, sample(t, "claude-code", event, nil))
	}

	session := mcpSession(t, filepath.Join("weather", "hooks.json"))
	if _, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Beijing"}}); err != nil {
		t.Fatal(err)
	}
	session.Close()

	tap := exec.Command(cli, "tap", "--", "python3", filepath.Join("weather", "script", "weather_plugin.py"))
	tap.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"weather_plugin","version":1,"modes":["tool"]}}
{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"get_weather","arguments":{"city":"Beijing"}}}
`)
	if out, err := tap.CombinedOutput(); err != nil {
		t.Fatalf("tap: %v\n%s", err, out)
	}

	calls := map[string]float64{}
	for _, s := range inspected(t, url, 3) {
		kind, _ := s["kind"].(string)
		host, _ := s["host"].(string)
		n, _ := s["calls"].(float64)
		calls[kind+" "+host] = n
	}
	for _, want := range []string{"bridge claude-code", "mcp ", "tap "} {
		if calls[want] < 1 {
			t.Errorf("the inspector shows no call of %q: %v", want, calls)
		}
	}
	if calls["tap "] != 2 {
		t.Errorf("the tap's session has %v calls, want 2 (hello, before_tool)", calls["tap "])
	}
}
