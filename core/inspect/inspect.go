// Package inspect is `hookwire inspect`: a web page, served on the
// loopback interface to this user alone, that shows every session of
// `hookwire run`, `tap`, `mcp` and the bridge live while they run (package
// feed is the producers' side), opens recordings and the logs of sessions
// that began before it, sends one call to a hook from a form made from the
// schema, and replays a recording against a hook.
//
// Only this user on this machine reaches it: it listens on 127.0.0.1 (and
// ::1 where there is one), every request must carry the random token of
// the URL it prints, its Host header must name the loopback (no DNS
// rebinding), anything that sends must come from the page's own origin,
// and it answers no CORS request. The producers' socket is in a folder
// only this user may enter.
package inspect

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
)

//go:embed page
var page embed.FS

// Options say how an inspector runs.
type Options struct {
	// Port is the TCP port on the loopback interface; 0 picks a free one.
	Port int
	// Socket is where producers find the inspector; empty means
	// feed.Socket().
	Socket string
	// Logs is the folder of the bridge sessions' logs, shown as sessions
	// of their own; empty means the socket's folder.
	Logs string
	// Token is the URL's token; empty means a random one.
	Token string
	// Allow are the hook commands the page may run, each an argv as
	// given: the composer's call and a replay run one of these, never a
	// command that comes from the page alone (whoever holds the token
	// would run anything as this user).
	Allow [][]string
	// AllowDirs are the folders, besides the inspector's own, the page may
	// run an allowed command in (--allow-dir): a relative command is
	// another program in another folder.
	AllowDirs []string
	// AllowEnv are the variables the page may set for a call (--allow-env);
	// a name that chooses the program or its code is refused (codeVar).
	AllowEnv []string
	// Logger receives what goes wrong with a producer's stream.
	Logger *slog.Logger
}

// Server is a running inspector.
type Server struct {
	opts  Options
	token string
	store store
	http  *http.Server
	lns   []net.Listener
	sock  net.Listener
	port  int
	dirs  []string // the folders a call may run in, resolved: the inspector's own first

	mu      sync.Mutex
	waiters map[chan struct{}]bool
	launch  []string // the launch files not removed yet (LaunchFile)
	prodWG  sync.WaitGroup
}

// Start listens on the loopback interface and on the producers' socket,
// and serves until Close.
func Start(opts Options) (*Server, error) {
	if opts.Socket == "" {
		opts.Socket = feed.Socket()
	}
	if opts.Logs == "" {
		opts.Logs = filepath.Dir(opts.Socket)
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if err := checkAllowEnv(opts.AllowEnv); err != nil {
		return nil, err
	}
	dirs, err := resolveDirs(opts.AllowDirs)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, token: opts.Token, dirs: dirs, waiters: map[chan struct{}]bool{}}
	if s.token == "" {
		b := make([]byte, 16)
		rand.Read(b)
		s.token = hex.EncodeToString(b)
	}
	s.store.changed = s.wake
	s.store.openLogs(opts.Logs)

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, err
	}
	s.lns = append(s.lns, ln)
	s.port = ln.Addr().(*net.TCPAddr).Port
	if ln6, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(s.port))); err == nil {
		s.lns = append(s.lns, ln6)
	}
	if s.sock, err = listenSocket(opts.Socket); err != nil {
		s.closeListeners()
		return nil, err
	}
	s.http = &http.Server{Handler: s.guard(s.routes()), ReadHeaderTimeout: 10 * time.Second}
	for _, l := range s.lns {
		go s.http.Serve(l)
	}
	go s.acceptProducers()
	return s, nil
}

// URL is the page's address, with its token.
func (s *Server) URL() string {
	return fmt.Sprintf("http://127.0.0.1:%d/?token=%s", s.port, s.token)
}

// launchTTL is how long a launch file waits for a browser that never
// loads the page: long enough for one to start cold.
const launchTTL = 2 * time.Minute

// LaunchFile writes a page that sends the browser on to URL, and returns
// its path, for a browser opener (xdg-open, open): every user of the
// machine may read a process's command line, so the opener is given this
// path, never the URL with its token. The file is readable by this user
// alone (0600, created new, never through a link) in the socket's folder,
// which is this user's alone; it is removed once the page is served, after
// two minutes, or at Close, whichever comes first.
func (s *Server) LaunchFile() (string, error) {
	b := make([]byte, 12)
	rand.Read(b)
	path := filepath.Join(filepath.Dir(s.opts.Socket), "open-"+hex.EncodeToString(b)+".html")
	// O_EXCL already refuses a name that is there, a link included;
	// O_NOFOLLOW says so where the system has it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
	if err != nil {
		return "", fmt.Errorf("writing the page that opens the inspector: %w", err)
	}
	url := html.EscapeString(s.URL())
	_, err = fmt.Fprintf(f, `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url=%s">
<title>hookwire inspect</title>
<p><a href="%s">Open hookwire inspect</a></p>
`, url, url)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("writing the page that opens the inspector: %w", err)
	}
	s.mu.Lock()
	s.launch = append(s.launch, path)
	s.mu.Unlock()
	time.AfterFunc(launchTTL, s.removeLaunch)
	return path, nil
}

// removeLaunch removes the launch files: the browser has loaded the page,
// or will not.
func (s *Server) removeLaunch() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, path := range s.launch {
		os.Remove(path)
	}
	s.launch = nil
}

// Port is the TCP port the page is served on.
func (s *Server) Port() int { return s.port }

// Close stops serving and removes the socket.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.sock.Close()
	os.Remove(s.opts.Socket)
	s.removeLaunch()
	s.mu.Lock()
	for c := range s.waiters {
		close(c)
		delete(s.waiters, c)
	}
	s.mu.Unlock()
	return s.http.Shutdown(ctx)
}

func (s *Server) closeListeners() {
	for _, l := range s.lns {
		l.Close()
	}
}

// listenSocket listens on the producers' socket, in a folder of this
// user's that no one else may enter: a folder another user made first, or
// may write, or a link to one, is refused (feed.CheckDir), as producers
// refuse to send there. A socket left by an inspector that is gone is
// replaced; one that answers is another inspector's.
func listenSocket(path string) (net.Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := feed.CheckDir(dir); err != nil {
		return nil, fmt.Errorf("not listening for sessions: %w", err)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("another hookwire inspect already listens on %s", path)
	}
	os.Remove(path)
	return net.Listen("unix", path)
}

func (s *Server) acceptProducers() {
	for {
		conn, err := s.sock.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			if err := s.store.ingest(conn); err != nil && !errors.Is(err, net.ErrClosed) {
				s.opts.Logger.Warn("a session's stream ended early", "err", err)
			}
		}()
	}
}

// wake tells every live stream that something changed.
func (s *Server) wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.waiters {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// OpenRecording adds a recording file as a session.
func (s *Server) OpenRecording(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	id, err := s.store.openRecording(filepath.Base(path), f)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return id, nil
}

// guard lets through only requests from this user's browser on this
// machine: the token, a loopback Host, and the page's own Origin on
// anything that sends.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.loopback(r.Host) {
			http.Error(w, "refused: the Host header does not name this machine's loopback", http.StatusForbidden)
			return
		}
		token := r.URL.Query().Get("token")
		if token == "" {
			token = r.Header.Get("X-Hookwire-Token")
		}
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) != 1 {
			http.Error(w, "refused: no token, or a wrong one (use the URL hookwire inspect printed)", http.StatusUnauthorized)
			return
		}
		// A browser names the page that sends; a program that holds the
		// token may send without.
		if origin := r.Header.Get("Origin"); origin != "" && !s.loopback(strings.TrimPrefix(origin, "http://")) {
			http.Error(w, "refused: a request from another origin", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodOptions {
			http.Error(w, "no CORS", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// loopback is true for host:port naming this server on the loopback.
func (s *Server) loopback(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != strconv.Itoa(s.port) {
		return false
	}
	return host == "127.0.0.1" || host == "::1" || host == "localhost"
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(page, "page")
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// The page is served with its token: a launch file has done its work.
		s.removeLaunch()
		b, _ := fs.ReadFile(static, "index.html")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.ReplaceAll(string(b), "TOKEN", s.token)))
	})
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /api/sessions", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, s.store.list())
	})
	mux.HandleFunc("GET /api/sessions/{id}/rows", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		from, _ := strconv.Atoi(r.URL.Query().Get("from"))
		since, _ := strconv.Atoi(r.URL.Query().Get("since"))
		rows, ok := s.store.rows(id, from, since)
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, rows)
	})
	mux.HandleFunc("GET /api/sessions/{id}/rows/{seq}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		seq, _ := strconv.Atoi(r.PathValue("seq"))
		d, ok := s.store.detail(id, seq)
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, d)
	})
	mux.HandleFunc("GET /api/sessions/{id}/search", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		seqs, ok := s.store.search(id, r.URL.Query().Get("q"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, map[string][]int{"seqs": seqs})
	})
	mux.HandleFunc("GET /api/sessions/{id}/recording", s.export)
	mux.HandleFunc("GET /api/live", s.live)
	mux.HandleFunc("GET /api/methods", func(w http.ResponseWriter, r *http.Request) {
		m, err := methods()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, m)
	})
	mux.HandleFunc("GET /api/allowed", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string][]string{"commands": s.allowedLines(), "dirs": s.dirs, "env": append([]string{}, s.opts.AllowEnv...)})
	})
	mux.HandleFunc("POST /api/call", s.call)
	mux.HandleFunc("POST /api/recordings", s.openUploaded)
	mux.HandleFunc("POST /api/replay", s.replay)
	return mux
}

// live streams a line each time something changes, at most ten a second:
// the page then fetches what is new.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "no streaming", http.StatusInternalServerError)
		return
	}
	c := make(chan struct{}, 1)
	s.mu.Lock()
	s.waiters[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiters, c)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "data: hello\n\n")
	flusher.Flush()
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case _, open := <-c:
			if !open {
				return
			}
			fmt.Fprint(w, "data: change\n\n")
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		case <-r.Context().Done():
			return
		}
		flusher.Flush()
		time.Sleep(100 * time.Millisecond)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
