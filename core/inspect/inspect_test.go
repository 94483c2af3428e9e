package inspect

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/runtime"
)

// start serves an inspector that may run the commands of allow.
func start(t *testing.T, allow ...[]string) *Server {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "hookwire", "inspect.sock")
	srv, err := Start(Options{Socket: sock, Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// privateDir is a folder of this user's alone, where producers send to a
// listener (feed refuses a folder others may enter).
func privateDir(tb testing.TB) string {
	dir := tb.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// request sends a request to the server, with the changes of edit.
func request(t *testing.T, srv *Server, method, path string, edit func(*http.Request)) (int, string) {
	t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(`{"command":["true"],"method":"hook.before_tool","params":{}}`)
	}
	req, err := http.NewRequest(method, "http://127.0.0.1:"+strconv.Itoa(srv.Port())+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
		t.Errorf("%s %s answers CORS: Access-Control-Allow-Origin %q", method, path, v)
	}
	return resp.StatusCode, string(b)
}

func TestOnlyThisUsersBrowserOnThisMachineIsServed(t *testing.T) {
	srv := start(t, []string{"true"})
	token := "?token=" + srv.token
	cases := []struct {
		name, method, path string
		edit               func(*http.Request)
		want               int
	}{
		{"the page with its token", "GET", "/" + token, nil, http.StatusOK},
		{"the API with its token", "GET", "/api/sessions" + token, nil, http.StatusOK},
		{"the token in a header", "GET", "/api/sessions", func(r *http.Request) { r.Header.Set("X-Hookwire-Token", srv.token) }, http.StatusOK},
		{"no token", "GET", "/", nil, http.StatusUnauthorized},
		{"no token, the API", "GET", "/api/sessions", nil, http.StatusUnauthorized},
		{"no token, a file of the page", "GET", "/static/app.js", nil, http.StatusUnauthorized},
		{"no token, the live stream", "GET", "/api/live", nil, http.StatusUnauthorized},
		// A session's recording holds every line of its wire, secrets and all.
		{"no token, a session's recording", "GET", "/api/sessions/1/recording", nil, http.StatusUnauthorized},
		{"no token, what the composer may run", "GET", "/api/allowed", nil, http.StatusUnauthorized},
		{"a wrong token", "GET", "/api/sessions?token=" + strings.Repeat("0", len(srv.token)), nil, http.StatusUnauthorized},
		{"a wrong token, the live stream", "GET", "/api/live?token=x", nil, http.StatusUnauthorized},
		{"a foreign Host (DNS rebinding)", "GET", "/api/sessions" + token, func(r *http.Request) { r.Host = "attacker.example:" + strconv.Itoa(srv.Port()) }, http.StatusForbidden},
		{"a loopback Host on another port", "GET", "/api/sessions" + token, func(r *http.Request) { r.Host = "127.0.0.1:1" }, http.StatusForbidden},
		{"a foreign Origin on a call", "POST", "/api/call" + token, func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, http.StatusForbidden},
		{"a foreign Origin on a replay", "POST", "/api/replay" + token, func(r *http.Request) { r.Header.Set("Origin", "https://127.0.0.1.attacker.example") }, http.StatusForbidden},
		{"a foreign Origin on a recording", "POST", "/api/recordings" + token, func(r *http.Request) { r.Header.Set("Origin", "null") }, http.StatusForbidden},
		{"a form post (no JSON) from anywhere", "POST", "/api/call" + token, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, http.StatusUnsupportedMediaType},
		{"a CORS preflight", "OPTIONS", "/api/call" + token, func(r *http.Request) {
			r.Header.Set("Origin", "http://attacker.example")
			r.Header.Set("Access-Control-Request-Method", "POST")
		}, http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, body := request(t, srv, c.method, c.path, c.edit); got != c.want {
				t.Errorf("%s %s: status %d, want %d (%s)", c.method, c.path, got, c.want, strings.TrimSpace(body))
			}
		})
	}
	// The page's own origin may send.
	got, body := request(t, srv, "POST", "/api/call"+token, func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:"+strconv.Itoa(srv.Port())) })
	if got != http.StatusOK || !strings.Contains(body, `"error"`) {
		t.Errorf("a call from the page's origin: status %d, %s", got, body)
	}
}

func TestNothingListensBeyondTheLoopback(t *testing.T) {
	srv := start(t)
	out, err := exec.Command("ss", "-ltnH", "sport = :"+strconv.Itoa(srv.Port())).Output()
	if err != nil {
		t.Fatalf("ss: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatalf("ss shows nothing listening on port %d", srv.Port())
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 4 {
			t.Fatalf("ss line %q", l)
		}
		local := f[3]
		if !strings.HasPrefix(local, "127.0.0.1:") && !strings.HasPrefix(local, "[::1]:") {
			t.Errorf("listens on %s, beyond the loopback", local)
		}
	}
}

func TestTheSocketsFolderIsThisUsersAlone(t *testing.T) {
	srv := start(t)
	fi, err := os.Stat(filepath.Dir(srv.opts.Socket))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("the socket's folder has mode %v, want 0700", fi.Mode().Perm())
	}
	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o755)
	if _, err := Start(Options{Socket: filepath.Join(open, "inspect.sock")}); err == nil || !strings.Contains(err.Error(), "0700") {
		t.Errorf("an inspector in a folder others may enter: %v", err)
	}
	// A link to a folder of this user's: another user could have made it
	// point anywhere.
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(filepath.Dir(srv.opts.Socket), link)
	if _, err := Start(Options{Socket: filepath.Join(link, "inspect.sock")}); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("an inspector in a linked folder: %v", err)
	}
	// A folder another user made first, mode 0700 as this user's would be.
	if os.Getuid() == 0 {
		theirs := filepath.Join(t.TempDir(), "theirs")
		os.Mkdir(theirs, 0o700)
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := Start(Options{Socket: filepath.Join(theirs, "inspect.sock")}); err == nil || !strings.Contains(err.Error(), "belongs to user 65534") {
			t.Errorf("an inspector in another user's folder: %v", err)
		}
	} else {
		t.Log("not root: no folder can be given to another user; package feed checks the owner on Lstat's word")
	}
	if _, err := Start(Options{Socket: srv.opts.Socket}); err == nil || !strings.Contains(err.Error(), "already listens") {
		t.Errorf("a second inspector on the same socket: %v", err)
	}
}

// sessions waits until the server knows n sessions, the last one ended.
func sessions(t *testing.T, srv *Server, n int) []Summary {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list := srv.store.list()
		if len(list) == n && list[n-1].Ended {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server knows %+v, want %d sessions, the last ended", list, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestASessionLosesNothingWhileTheInspectorRuns(t *testing.T) {
	srv := start(t)
	pub := feed.OpenAt(srv.opts.Socket, feed.Info{Kind: "run", Host: "reference"})
	if !pub.Active() {
		t.Fatal("the session does not see the inspector")
	}
	const n = 10_000
	big := json.RawMessage(`{"tool":"x","arguments":{"blob":"` + strings.Repeat("a", 1<<20) + `"}}`)
	for i := range n {
		params := json.RawMessage(`{"tool":"t` + strconv.Itoa(i%7) + `"}`)
		if i == n/2 {
			params = big
		}
		pub.Call(runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Params: params, Result: json.RawMessage(`{"action":"continue"}`), Duration: time.Millisecond})
	}
	pub.Close()
	list := sessions(t, srv, 1)
	if list[0].Calls != n || list[0].Rows != n {
		t.Fatalf("the inspector has %d calls, %d rows; the session made %d", list[0].Calls, list[0].Rows, n)
	}
	d, ok := srv.store.detail(1, n/2)
	if !ok || len(d.Params) != len(big) {
		t.Errorf("the 1 MB message came back with %d bytes, want %d", len(d.Params), len(big))
	}
	got, _ := srv.store.rows(1, n-2, n)
	rows := got.Rows
	if len(rows) != 2 || rows[1].Seq != n-1 || rows[1].Tool != "t"+strconv.Itoa((n-1)%7) || rows[1].Action != "continue" {
		t.Errorf("the last rows are %+v", rows)
	}
}

func TestASessionWithoutAnInspectorFindsOneThatStartsLater(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "hookwire", "inspect.sock")
	pub := feed.OpenAt(sock, feed.Info{Kind: "bridge", Host: "claude-code"})
	if pub.Active() {
		t.Fatal("active with no inspector")
	}
	pub.Call(runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Params: map[string]any{"tool": "lost"}})
	srv, err := Start(Options{Socket: sock})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	deadline := time.Now().Add(5 * time.Second)
	for !pub.Active() { // looked for once a second
		if time.Now().After(deadline) {
			t.Fatal("the session never found the inspector")
		}
		time.Sleep(50 * time.Millisecond)
	}
	pub.Call(runtime.CallRecord{Hook: "h", Method: "hook.before_tool", Params: map[string]any{"tool": "seen"}, Result: map[string]any{"action": "continue"}})
	pub.Close()
	list := sessions(t, srv, 1)
	got, _ := srv.store.rows(list[0].ID, 0, 0)
	rows := got.Rows
	if !list[0].Joined || len(rows) != 1 || rows[0].Tool != "seen" {
		t.Errorf("session %+v, rows %+v: want one call, the session marked as joined late", list[0], rows)
	}
}

func TestAFailedCallTakesTheStderrAroundItAndAModifyShowsItsDiff(t *testing.T) {
	var st store
	s := st.add(Summary{})
	at := time.Now()
	item := func(it feed.Item) { it.Time = at; st.take(s, item{Item: it}); at = at.Add(time.Millisecond) }
	item(feed.Item{Type: "stderr", Hook: "other", Text: "not mine"})
	item(feed.Item{Type: "stderr", Hook: "h", Text: "before"})
	item(feed.Item{Type: "call", Hook: "h", Method: "hook.before_tool", Params: json.RawMessage(`{"tool":"x"}`), Error: "hook exited with status 1", Policy: "closed"})
	item(feed.Item{Type: "stderr", Hook: "h", Text: "after"})
	item(feed.Item{Type: "call", Hook: "h", Method: "hook.before_llm", Params: json.RawMessage(`{"model":"m","channel":"cli","tools":[]}`),
		Result: json.RawMessage(`{"action":"modify","request":{"model":"m","tools":[{"type":"function","function":{"name":"get_weather"}}]}}`)})
	item(feed.Item{Type: "end"})
	got, _ := st.rows(s.ID, 0, 0)
	rows := got.Rows
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	failed, _ := st.detail(s.ID, 0)
	if !failed.Failed || failed.Policy != "closed" || strings.Join(failed.Stderr, "|") != "before|after" {
		t.Errorf("the failed call: %+v", failed)
	}
	modify, _ := st.detail(s.ID, 1)
	if len(modify.Diff) != 1 || modify.Diff[0].Path != "/tools/0" || modify.Diff[0].Before != nil || !strings.Contains(string(modify.Diff[0].After), "get_weather") {
		t.Errorf("the modify's diff: %+v (the host keeps channel: no change)", modify.Diff)
	}
	if rows[2].Type != "stderr" || rows[2].Text != "not mine" {
		t.Errorf("a line no call took: %+v", rows[2])
	}
	if s.Calls != 2 || s.Failures != 1 {
		t.Errorf("calls %d, failures %d", s.Calls, s.Failures)
	}
}

func TestBridgeLogsAreSessionsOfTheirOwn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hookwire")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "claude-code-0123abcd.log"), []byte("time=1 level=INFO msg=started\nline two\n"), 0o600)
	srv, err := Start(Options{Socket: filepath.Join(dir, "inspect.sock")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	list := srv.store.list()
	if len(list) != 1 || list[0].Host != "claude-code" || list[0].Source != "log" || list[0].Rows != 2 {
		t.Errorf("sessions %+v", list)
	}
}

func TestALineThatOnlyLooksLikeJSONIsShownAsText(t *testing.T) {
	it, err := decodeItem([]byte(`{"type":"wire","time":"2026-11-26T10:00:00Z","hook":"h","dir":"recv","message":{not json}}`))
	if err != nil || it.Text != "{not json}" || it.Message != nil || it.Hook != "h" || it.Dir != "recv" {
		t.Errorf("item %+v, error %v", it, err)
	}
	if _, err := decodeItem([]byte(`{"type":"call","hook":"h","params":{oops}}`)); err == nil {
		t.Error("a call item that is not JSON was taken")
	}
}

// A call on the wire is a row with its tool and action, and opens on its
// bodies byte for byte as the hook's lines had them, whatever their
// spacing, the names' escapes, or members of the same name deeper down.
func TestACallOnTheWireOpensOnItsBodiesAsSent(t *testing.T) {
	params := `{"meta":{"x":[1,{"tool":"not this"}]}, "\u0074ool" :"read_file"}`
	result := `{"reason":"no","action":"deny_tool"}`
	stream := `{"kind":"run"}
{"type":"wire","time":"2026-11-26T10:00:00Z","hook":"h","dir":"send","message": {"jsonrpc":"2.0", "id" : 3 ,"method":"hook.before_tool","params" :  ` + params + ` }}
{"type":"wire","time":"2026-11-26T10:00:01Z","hook":"h","dir":"recv","message":{"id":3,"error":null,"result":` + result + `}}
{"type":"wire","hook":"h","dir":"send","message":{"id":4,"method":"hook.before_tool","params":{"tool":7}}}
{"type":"wire","hook":"h","dir":"recv","message":{"id":4,"error":{"code":-32000,"message":"no"}}}
{"type":"wire","hook":"h","dir":"recv","message":[1,2]}
`
	var st store
	if err := st.ingest(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	got, _ := st.rows(1, 0, 0)
	rows := got.Rows
	if len(rows) != 3 {
		t.Fatalf("rows %+v, want two calls and a log line", rows)
	}
	if r := rows[0]; r.Type != "call" || r.Method != "hook.before_tool" || r.Tool != "read_file" || r.Action != "deny_tool" || r.Failed || r.LatencyNS != int64(time.Second) {
		t.Errorf("the first call's row: %+v", r)
	}
	d, _ := st.detail(1, 0)
	if string(d.Params) != params || string(d.Result) != result {
		t.Errorf("the first call opens on params %s, result %s; want %s, %s", d.Params, d.Result, params, result)
	}
	if r := rows[1]; r.Tool != "" || !r.Failed || r.Text != `error reply: {"code":-32000,"message":"no"}` {
		t.Errorf("the second call's row: %+v", r)
	}
	if r := rows[2]; r.Type != "log" || r.Text != "recv [1,2]" {
		t.Errorf("a line that is no JSON-RPC message: %+v", r)
	}
}

// An inspector that reads nothing never holds the host: publishing only
// queues, and the session's end waits two seconds at most.
func TestAStuckInspectorNeverHoldsTheHost(t *testing.T) {
	sock := filepath.Join(privateDir(t), "inspect.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(time.Minute) // accepts, never reads
		}
	}()
	pub := feed.OpenAt(sock, feed.Info{Kind: "run"})
	if !pub.Active() {
		t.Fatal("the session does not see the stuck inspector")
	}
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"tool":"` + strings.Repeat("x", 64<<10) + `"}}`)
	done := make(chan struct{})
	go func() {
		for range 500 { // 32 MB: far more than the socket's buffers
			pub.Wire("h", true, line)
		}
		pub.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a stuck inspector held the host")
	}
}

func TestARecordingSentByThePageIsASessionAndABadOneIsRefusedByLine(t *testing.T) {
	srv := start(t)
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(srv.Port())+"/api/recordings?token="+srv.token, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	recording := `{"hook":"w","dir":"send","time":"2026-11-26T10:00:00Z","message":{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"get_weather"}}}
{"hook":"w","dir":"recv","time":"2026-11-26T10:00:00.001Z","latency_ns":1000000,"message":{"jsonrpc":"2.0","id":2,"result":{"action":"respond","result":{"for_llm":"sunny"}}}}
`
	body, _ := json.Marshal(map[string]string{"name": "w.jsonl", "recording": recording})
	if code, out := post(string(body)); code != http.StatusOK || !strings.Contains(out, `"id":1`) {
		t.Fatalf("status %d: %s", code, out)
	}
	got, _ := srv.store.rows(1, 0, 0)
	if len(got.Rows) != 1 || got.Rows[0].Tool != "get_weather" || got.Rows[0].Action != "respond" || got.Rows[0].LatencyNS != 1e6 {
		t.Errorf("rows %+v", got.Rows)
	}
	body, _ = json.Marshal(map[string]string{"name": "bad.jsonl", "recording": recording + `{"hook":"w","dir":"up","text":"x"}` + "\n"})
	if code, out := post(string(body)); code != http.StatusBadRequest || !strings.Contains(out, "line 3") {
		t.Errorf("a bad recording: status %d: %s", code, out)
	}
}

// post sends body to the API at path, as the page does.
func post(t *testing.T, srv *Server, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(srv.Port())+path+"?token="+srv.token, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Whoever holds the token (another local user who read it) may ask the
// composer or a replay to run a command: only one the user named when
// starting the inspector runs; any other is refused, saying which flag
// allows it, and never starts.
func TestThePageRunsOnlyTheCommandsTheInspectorWasStartedWith(t *testing.T) {
	dir := t.TempDir()
	listed, unlisted := filepath.Join(dir, "listed"), filepath.Join(dir, "unlisted")
	touch := func(marker string) []string { return []string{"sh", "-c", "touch " + marker + "; exit 1"} }
	srv := start(t, touch(listed))
	trace := filepath.Join(dir, "w.jsonl")
	os.WriteFile(trace, []byte(`{"hook":"w","dir":"send","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"w","version":1,"modes":["tool"]}}}
{"hook":"w","dir":"send","time":"2026-11-26T10:00:00Z","message":{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"get_weather"}}}
{"hook":"w","dir":"recv","time":"2026-11-26T10:00:00.001Z","message":{"jsonrpc":"2.0","id":2,"result":{"action":"continue"}}}
`), 0o600)
	rec, err := srv.OpenRecording(trace)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]func(argv []string) string{
		"/api/call": func(argv []string) string {
			b, _ := json.Marshal(CallRequest{Command: argv, Method: "hook.before_tool", Params: json.RawMessage(`{}`)})
			return string(b)
		},
		"/api/replay": func(argv []string) string {
			b, _ := json.Marshal(ReplayRequest{Session: rec, Command: argv})
			return string(b)
		},
	}
	for path, body := range bodies {
		for _, argv := range [][]string{touch(unlisted), {"sh", "-c", "touch " + listed + "; exit 1", "extra"}, {"sh"}} {
			code, out := post(t, srv, path, body(argv))
			var refusal struct{ Error string }
			json.Unmarshal([]byte(out), &refusal)
			if code != http.StatusForbidden || !strings.Contains(refusal.Error, "start it with --allow") || !strings.Contains(refusal.Error, strings.Join(touch(listed), " ")) {
				t.Errorf("%s %q: status %d, %s; want 403, a JSON error naming --allow and what may run", path, argv, code, out)
			}
		}
		if _, err := os.Stat(unlisted); err == nil {
			t.Fatalf("%s ran a command the inspector was not started with", path)
		}
		if _, err := os.Stat(listed); err == nil {
			t.Fatalf("%s ran a command with more words than the one allowed", path)
		}
		code, out := post(t, srv, path, body(touch(listed)))
		if _, err := os.Stat(listed); code == http.StatusForbidden || err != nil {
			t.Errorf("%s did not run the command the inspector was started with: status %d, %s", path, code, out)
		}
		os.Remove(listed)
	}
	// The page is told what it may run.
	req, _ := http.NewRequest("GET", "http://127.0.0.1:"+strconv.Itoa(srv.Port())+"/api/allowed?token="+srv.token, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var allowed struct{ Commands []string }
	json.NewDecoder(resp.Body).Decode(&allowed)
	if len(allowed.Commands) != 1 || allowed.Commands[0] != strings.Join(touch(listed), " ") {
		t.Errorf("the page is told it may run %q", allowed.Commands)
	}
}

// A session reads like a trace: each call says what came of it (a deny,
// an abort, a failure), with its key argument and the hook's reason; the
// session counts each; a turn opens on its prompt and ends with its
// outcome; the runtime's events that only repeat a step are left out.
func TestASessionCountsDenialsAbortsFailuresAndJunkAndSaysHowEachTurnEnded(t *testing.T) {
	stream := `{"kind":"run","host":"reference"}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.session.start"}}
{"type":"event","name":"user","data":{"type":"user","content":"Clean the whole disk."}}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.turn.start"}}
{"type":"event","name":"llm_request","data":{"type":"llm_request","iteration":1,"tools":["shell"]}}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.llm.request"}}
{"type":"wire","hook":"g","dir":"send","message":{"id":1,"method":"hook.before_tool","params":{"tool":"shell","arguments":{"command":"rm -rf /"},"canonical":{"kind":"shell","command":"rm -rf /"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":1,"result":{"action":"deny_tool","reason":"dangerous command blocked"}}}
{"type":"wire","hook":"g","dir":"recv","text":"debug: looked at rm -rf /"}
{"type":"wire","hook":"g","dir":"send","message":{"id":2,"method":"hook.approve_tool","params":{"tool":"write_file","arguments":{"content":"x","file_path":"/etc/passwd"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":2,"result":{"approved":false,"reason":"not there"}}}
{"type":"wire","hook":"g","dir":"send","message":{"id":3,"method":"hook.before_tool","params":{"tool":"get_weather","arguments":{"days":3,"city":"Beijing"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":3,"result":{"action":"abort_turn","reason":"enough"}}}
{"type":"wire","hook":"g","dir":"send","message":{"id":4,"method":"hook.before_tool","params":{"tool":"shell","arguments":{"command":"ls"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":4,"error":{"code":-32000,"message":"no"}}}
{"type":"wire","hook":"g","dir":"send","message":{"id":5,"method":"hook.approve_tool","params":{"tool":"shell","arguments":{"command":"ls"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":5,"result":{"approved":true}}}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.turn.end"}}
{"type":"event","name":"turn_end","data":{"type":"turn_end","status":"aborted","by":"g","reason":"enough"}}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.session.end"}}
`
	var st store
	if err := st.ingest(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s := st.list()[0]
	if s.Calls != 5 || s.Denials != 2 || s.Aborts != 1 || s.Failures != 1 || s.Junk != 1 {
		t.Errorf("calls %d, denials %d, aborts %d, failures %d, junk %d; want 5, 2, 1, 1, 1", s.Calls, s.Denials, s.Aborts, s.Failures, s.Junk)
	}
	if s.Prompt != "Clean the whole disk." || s.Turns != 1 || s.Outcome != "aborted" {
		t.Errorf("prompt %q, turns %d, outcome %q", s.Prompt, s.Turns, s.Outcome)
	}
	got, _ := st.rows(1, 0, 0)
	var calls, events []Row
	var turn, junk Row
	for _, r := range got.Rows {
		switch {
		case r.Type == "call":
			calls = append(calls, r)
		case r.Type == "turn":
			turn = r
		case r.Verdict == "junk":
			junk = r
		default:
			events = append(events, r)
		}
	}
	want := []struct{ action, arg, reason, verdict string }{
		{"deny_tool", "rm -rf /", "dangerous command blocked", "deny"},
		{"denied", "/etc/passwd", "not there", "deny"},
		{"abort_turn", "city=Beijing", "enough", "abort"},
		{"", "ls", "", "failed"},
		{"approved", "ls", "", ""},
	}
	if len(calls) != len(want) {
		t.Fatalf("calls %+v", calls)
	}
	for i, w := range want {
		if c := calls[i]; c.Action != w.action && w.verdict != "failed" || c.Arg != w.arg || c.Reason != w.reason || c.Verdict != w.verdict || c.Turn != 1 {
			t.Errorf("call %d: action %q, arg %q, reason %q, verdict %q, turn %d; want %+v in turn 1", i, c.Action, c.Arg, c.Reason, c.Verdict, c.Turn, w)
		}
	}
	if turn.Text != "Clean the whole disk." || turn.Turn != 1 || turn.Outcome != "aborted" || turn.Reason != "by hook g: enough" || turn.Fold {
		t.Errorf("the turn's row: %+v", turn)
	}
	if junk.Type != "log" || junk.Text != "recv debug: looked at rm -rf /" || junk.Turn != 1 {
		t.Errorf("the junk line's row: %+v", junk)
	}
	// Shown once: llm_request, not agent.llm.request; the session's start
	// and end, which have no twin, folded with the steps.
	var texts []string
	for _, e := range events {
		texts = append(texts, e.Text)
		if !e.Fold {
			t.Errorf("an event not folded: %+v", e)
		}
	}
	if got := strings.Join(texts, "|"); got != `agent.session.start|llm_request {"iteration":1,"tools":["shell"]}|turn_end {"by":"g","reason":"enough","status":"aborted"}|agent.session.end` {
		t.Errorf("the events: %s", got)
	}
}

// The search looks inside the bodies the rows do not show.
func TestTheSearchLooksInsideRequestsAndReplies(t *testing.T) {
	stream := `{"kind":"run"}
{"type":"wire","hook":"g","dir":"send","message":{"id":1,"method":"hook.before_tool","params":{"tool":"read_file","arguments":{"file_path":"\/etc\/PASSWD"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":1,"result":{"action":"continue"}}}
{"type":"wire","hook":"g","dir":"send","message":{"id":2,"method":"hook.before_tool","params":{"tool":"read_file","arguments":{"file_path":"notes.txt"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":2,"result":{"action":"modify","call":{"tool":"read_file","arguments":{"file_path":"/etc/passwd"}}}}}
{"type":"wire","hook":"g","dir":"send","message":{"id":3,"method":"hook.before_tool","params":{"tool":"read_file","arguments":{"file_path":"other"}}}}
{"type":"wire","hook":"g","dir":"recv","message":{"id":3,"result":{"action":"continue"}}}
`
	var st store
	if err := st.ingest(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	seqs, ok := st.search(1, "/etc/passwd")
	if !ok || len(seqs) != 2 || seqs[0] != 0 || seqs[1] != 1 {
		t.Errorf("a search of /etc/passwd finds rows %v, want 0 (its request) and 1 (its reply)", seqs)
	}
	if seqs, _ := st.search(1, "passwd"); len(seqs) != 2 {
		t.Errorf("a search of passwd finds rows %v", seqs)
	}
}
