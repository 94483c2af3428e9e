package inspect

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/wiretap"
)

// get fetches path from the server with its token.
func get(t *testing.T, srv *Server, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(srv.Port()) + path + "?token=" + srv.token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// A live session is downloaded as the recording of its wire, line for
// line in the order they went (a line that is not JSON as text), which
// hookwire replay reads; a session with no wire has none to give.
func TestALiveSessionIsExportedAsTheRecordingOfItsWire(t *testing.T) {
	srv := start(t)
	pub := feed.OpenAt(srv.opts.Socket, feed.Info{Kind: "tap", Command: "python3 hook.py"})
	lines := []struct {
		out  bool
		line string
	}{
		{true, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"w","version":1,"modes":["tool"]}}`},
		{false, `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`},
		{true, `{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"shell","arguments":{"command":"ls"}}}`},
		{false, `debug: a print on stdout`},
		{false, `{"jsonrpc":"2.0","id":2,"result":{"action":"continue"}}`},
	}
	for _, l := range lines {
		pub.Wire("w", l.out, []byte(l.line))
	}
	pub.Close()
	list := sessions(t, srv, 1)
	if list[0].Wire != len(lines) {
		t.Errorf("the session says it has %d lines of the wire, want %d", list[0].Wire, len(lines))
	}
	resp, body := get(t, srv, "/api/sessions/1/recording")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
		t.Fatalf("status %d, %v\n%s", resp.StatusCode, resp.Header, body)
	}
	recs, err := wiretap.Read(strings.NewReader(body))
	if err != nil || len(recs) != len(lines) {
		t.Fatalf("the export reads as %d records (%v), want %d:\n%s", len(recs), err, len(lines), body)
	}
	for i, l := range lines {
		r := recs[i]
		got := string(r.Message)
		if r.Text != nil {
			got = *r.Text
		}
		if dir := map[bool]string{true: "send", false: "recv"}[l.out]; r.Hook != "w" || r.Dir != dir || got != l.line || r.Time.IsZero() {
			t.Errorf("record %d: %+v, want %s %s", i, r, dir, l.line)
		}
	}
	// A session of in-process calls alone has no wire to export.
	pub = feed.OpenAt(srv.opts.Socket, feed.Info{Kind: "run"})
	pub.Event("user", map[string]any{"type": "user", "content": "hi"})
	pub.Close()
	sessions(t, srv, 2)
	if resp, body := get(t, srv, "/api/sessions/2/recording"); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "no line") {
		t.Errorf("a session with no wire: status %d, %s", resp.StatusCode, body)
	}
	if resp, _ := get(t, srv, "/api/sessions/9/recording"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("no such session: status %d", resp.StatusCode)
	}
}
