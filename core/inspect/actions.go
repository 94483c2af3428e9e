package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/schema"
	"github.com/hookwire/hookwire/core/wire"
	"github.com/hookwire/hookwire/core/wiretap"
)

// Method is what the composer needs of a method: its params' schema, from
// which the page makes the form, and realistic params to start from.
type Method struct {
	Name         string          `json:"name"`
	Notification bool            `json:"notification,omitempty"`
	Params       string          `json:"params"` // the $defs entry of its params
	Sample       json.RawMessage `json:"sample,omitempty"`
}

// Methods is the method table and the schema it refers to.
type Methods struct {
	Methods []Method        `json:"methods"`
	Schema  json.RawMessage `json:"schema"`
}

func methods() (Methods, error) {
	sch, err := schema.JSON()
	if err != nil {
		return Methods{}, err
	}
	out := Methods{Schema: sch}
	for _, m := range protocol.Methods {
		out.Methods = append(out.Methods, Method{Name: m.Name, Notification: m.Notification, Params: m.Params.Name(), Sample: conformance.Sample(m.Name)})
	}
	return out, nil
}

// CallRequest is what the composer sends: a hook command, a method and
// its params, as `hookwire call` takes them.
type CallRequest struct {
	Command []string        `json:"command"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	// Dir is the folder the hook runs in: "" for the inspector's own.
	Dir string `json:"dir,omitempty"`
	// Env are variables set for the hook, NAME=value, on top of the
	// inspector's environment.
	Env []string `json:"env,omitempty"`
	// TimeoutMS bounds the hello and the reply; 0 means five seconds.
	TimeoutMS int `json:"timeout_ms,omitempty"`
}

// CallReply is what came back: the reply line, whether it matches the
// schema, and the hook's stderr.
type CallReply struct {
	Reply     json.RawMessage `json:"reply,omitempty"`
	Action    string          `json:"action,omitempty"`
	Error     string          `json:"error,omitempty"`
	Invalid   string          `json:"invalid,omitempty"`
	LatencyNS int64           `json:"latency_ns"`
	Stderr    []string        `json:"stderr,omitempty"`
}

// maxBody bounds what the page may send: a recording, or params, up to
// the runtime's line limit.
const maxBody = maxLine

func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		http.Error(w, "send application/json", http.StatusUnsupportedMediaType)
		return false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(v); err != nil {
		http.Error(w, "a request that is not what it should be: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// allowed reports whether the page may run argv: only a command the user
// named when starting the inspector (Options.Allow), word for word.
func (s *Server) allowed(argv []string) bool {
	for _, a := range s.opts.Allow {
		if slices.Equal(a, argv) {
			return true
		}
	}
	return false
}

// allowedLines are the commands the page may run, as the page writes them.
func (s *Server) allowedLines() []string {
	out := []string{}
	for _, a := range s.opts.Allow {
		out = append(out, strings.Join(a, " "))
	}
	return out
}

// refuseCommand answers a command the page may not run, naming the flag
// that allows it.
func (s *Server) refuseCommand(w http.ResponseWriter, argv []string) {
	msg := fmt.Sprintf("refused: hookwire inspect runs only the hook commands it was started with; to run this one, start it with --allow %q", strings.Join(argv, " "))
	if lines := s.allowedLines(); len(lines) > 0 {
		msg += fmt.Sprintf(" (it may run: %s)", strings.Join(lines, "; "))
	}
	refuse(w, msg)
}

// refuse answers a request the page may not make, with why in JSON.
func refuse(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusForbidden)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func (s *Server) call(w http.ResponseWriter, r *http.Request) {
	var req CallRequest
	if !readBody(w, r, &req) {
		return
	}
	if len(req.Command) > 0 && !s.allowed(req.Command) {
		s.refuseCommand(w, req.Command)
		return
	}
	// The folder and the variables come from the page: checked here, so
	// that they never make an allowed command run another program.
	dir, err := s.callDir(req.Dir)
	if err == nil {
		_, err = s.callEnv(req.Env)
	}
	if err != nil {
		refuse(w, err.Error())
		return
	}
	req.Dir = dir
	reply, err := Call(r.Context(), req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, reply)
}

// Call starts the hook, says hello with the mode the method needs, sends
// one request and checks the reply against the schema, as `hookwire call`
// does; the hook is stopped before it returns. It runs what req says: the
// server checks a request of the page (its command, folder and variables)
// before.
func Call(ctx context.Context, req CallRequest) (CallReply, error) {
	m, ok := protocol.Lookup(req.Method)
	if !ok || m.Name == protocol.MethodHello || m.Notification {
		return CallReply{}, fmt.Errorf("the composer sends a request of a stage, not %q", req.Method)
	}
	if len(req.Command) == 0 || req.Command[0] == "" {
		return CallReply{}, errors.New("no hook command")
	}
	if !json.Valid(req.Params) {
		return CallReply{}, errors.New("params are not JSON")
	}
	env := map[string]string{}
	for _, kv := range req.Env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return CallReply{}, fmt.Errorf("the variable %q is not NAME=value", kv)
		}
		env[name] = value
	}
	timeout := time.Duration(req.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	var out CallReply
	reply := wiretap.NewReply(m.Name)
	stderr := &lines{}
	cmd := wire.Command{Name: "composer", Argv: req.Command, Dir: req.Dir, Env: env, Modes: []protocol.Mode{m.Mode}}
	p, err := wire.Spawn(ctx, cmd, wire.ProcessOptions{HelloTimeout: timeout, Conn: wire.ConnOptions{Logger: slog.New(stderr), Trace: reply.See}})
	if err != nil {
		out.Error, out.Stderr = err.Error(), stderr.all()
		return out, nil
	}
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, wiretap.NoReply(timeout))
	defer cancel()
	start := time.Now()
	result, callErr := p.Call(cctx, m.Name, req.Params)
	out.LatencyNS = int64(time.Since(start))
	p.Close()
	out.Reply, out.Stderr = reply.Line(), stderr.all()
	if callErr != nil {
		out.Error = callErr.Error()
		return out, nil
	}
	out.Action = resultOf(result).verb()
	v, err := schema.NewValidator()
	if err != nil {
		return out, err
	}
	if err := v.Validate(out.Reply, m.Name); err != nil {
		out.Invalid = err.Error()
	}
	return out, nil
}

// lines keeps what a hook writes on stderr, which the wire logs a line at
// a time with stream=stderr; it is a log handler that drops the rest.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) Enabled(context.Context, slog.Level) bool { return true }
func (l *lines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *lines) WithGroup(string) slog.Handler            { return l }

func (l *lines) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "stream" && a.Value.String() == "stderr" {
			l.mu.Lock()
			if len(l.l) < 1000 {
				l.l = append(l.l, r.Message)
			}
			l.mu.Unlock()
		}
		return true
	})
	return nil
}

func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.l...)
}

// openUploaded adds a recording the page read from a file.
func (s *Server) openUploaded(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name      string `json:"name"`
		Recording string `json:"recording"`
	}
	if !readBody(w, r, &req) {
		return
	}
	id, err := s.store.openRecording(req.Name, strings.NewReader(req.Recording))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, map[string]int{"id": id})
}

// ReplayRequest replays an opened recording against a hook command.
type ReplayRequest struct {
	Session int      `json:"session"`
	Command []string `json:"command"`
	Hook    string   `json:"hook,omitempty"`
	Ignore  []string `json:"ignore,omitempty"`
}

func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	var req ReplayRequest
	if !readBody(w, r, &req) {
		return
	}
	sess := s.store.get(req.Session)
	if sess == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	recs, _ := s.store.recording(req.Session)
	if len(recs) == 0 {
		http.Error(w, "this session has no line of a hook's wire to replay", http.StatusBadRequest)
		return
	}
	if len(req.Command) == 0 || req.Command[0] == "" {
		http.Error(w, "no hook command", http.StatusBadRequest)
		return
	}
	if !s.allowed(req.Command) {
		s.refuseCommand(w, req.Command)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
	defer cancel()
	opts := wiretap.ReplayOptions{Hook: req.Hook, Ignore: req.Ignore}
	opts.Process.Conn.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	report, err := wiretap.Replay(ctx, recs, wire.Command{Argv: req.Command}, opts)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	writeJSON(w, report)
}
