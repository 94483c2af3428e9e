// Package mcphook serves the plugin tools of a hook process over the Model
// Context Protocol, so that hosts that take tools from MCP servers (PicoClaw's
// tools.mcp.servers, Claude Code, Gemini CLI) get them even where they do not
// let a hook add tools to the LLM's request.
//
// The hook runs unchanged, through the reference runtime: it is asked
// hook.before_llm with an empty request, and the tools it adds are the tools
// listed; a call to one of them is sent as hook.before_tool, and the hook's
// respond is the tool's result.
package mcphook

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// Options tune a Server.
type Options struct {
	// Name names the hook in hook.hello, in logs and in the MCP server's
	// implementation info; "hook" when empty.
	Name string
	// Version is the MCP server's version string.
	Version string
	// Process is how the hook runs: its command, dir, env, deadlines and
	// restart policy. Enabled and Intercept are set by the server.
	Process runtime.ProcessConfig
	// Runtime tunes the runtime the hook runs in; its Logger also receives
	// the hook's stderr.
	Runtime runtime.Options
}

// Server is an MCP server whose tools are those of one hook process.
type Server struct {
	name    string
	mcp     *mcp.Server
	rt      *runtime.Runtime
	started chan struct{} // closed once the hook's start has ended
	err     error         // why the hook did not start, set before started closes
	stderr  *lastLine

	mu    sync.Mutex
	tools map[string]string // name -> JSON of the definition, as last listed
}

// New makes a server for a hook; nothing runs until Run.
func New(opts Options) (*Server, error) {
	name := opts.Name
	if name == "" {
		name = "hook"
	}
	proc := opts.Process
	proc.Enabled = true
	proc.Intercept = []string{string(runtime.StageBeforeLLM), string(runtime.StageBeforeTool)}
	if proc.FailurePolicy == nil {
		// A failed call is the tool's failure, reported as such, rather than
		// a hook skipped as if it had not answered.
		proc.FailurePolicy = map[string]string{string(runtime.StageBeforeTool): string(runtime.FailClosed)}
	}
	logger := opts.Runtime.Logger
	if logger == nil {
		logger = slog.Default()
	}
	stderr := newLastLine(logger.Handler())
	rtOpts := opts.Runtime
	rtOpts.Logger = slog.New(stderr)
	cfg := runtime.Config{Hooks: runtime.HooksConfig{Enabled: true, Processes: map[string]runtime.ProcessConfig{name: proc}}}
	rt, err := runtime.New(cfg, rtOpts)
	if err != nil {
		return nil, err
	}
	s := &Server{name: name, rt: rt, started: make(chan struct{}), stderr: stderr, tools: map[string]string{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "hookwire-" + name, Version: opts.Version}, &mcp.ServerOptions{
		// Tools come and go with the hook's answers: the client is told.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	s.mcp.AddReceivingMiddleware(s.middleware)
	return s, nil
}

// Run starts the hook and serves MCP on the transport until the client
// leaves or ctx ends, then stops the hook.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	// The hook starts, and its tools are listed, before any client is
	// connected: a client told of a change must see one.
	s.start(ctx)
	defer s.rt.Close()
	return s.mcp.Run(ctx, t)
}

func (s *Server) start(ctx context.Context) {
	defer close(s.started)
	if err := s.rt.Start(ctx); err != nil {
		if last := s.stderr.get(); last != "" {
			err = fmt.Errorf("%w (its last stderr line: %s)", err, last)
		}
		s.err = err
		return
	}
	if err := s.sync(ctx); err != nil {
		s.err = err
	}
}

// middleware holds every request until the hook has started: initialize
// fails when it could not, so that the client shows why at once. tools/list
// asks the hook again first, so that the list is always its current one.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		select {
		case <-s.started:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if s.err != nil && !strings.HasPrefix(method, "notifications/") {
			return nil, internalError(fmt.Errorf("hook %s: %w", s.name, s.err))
		}
		if method == "tools/list" {
			if err := s.sync(ctx); err != nil {
				return nil, internalError(err)
			}
		}
		return next(ctx, method, req)
	}
}

// sync asks the hook which tools it adds to an empty LLM request, and makes
// them the server's tools. A change reaches connected clients as
// notifications/tools/list_changed.
func (s *Server) sync(ctx context.Context) error {
	req, d := s.rt.BeforeLLM(ctx, protocol.BeforeLLMParams{Meta: meta(), Model: "mcp", Messages: []protocol.Message{}})
	if !d.Continue() {
		return fmt.Errorf("hook %s: hook.before_llm ended with %s: %s", d.Hook, d.Action, d.Reason)
	}
	offered := map[string]protocol.ToolDefinition{}
	for _, t := range req.Tools {
		if t.Function.Name == "" {
			continue
		}
		offered[t.Function.Name] = t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range s.tools {
		if _, ok := offered[name]; !ok {
			delete(s.tools, name)
			s.mcp.RemoveTools(name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(offered)) {
		def := offered[name]
		key, _ := protocol.Marshal(def)
		if s.tools[name] == string(key) {
			continue
		}
		tool, err := mcpTool(def)
		if err != nil {
			slog.New(s.stderr).Warn("tool not served", "hook", s.name, "tool", name, "error", err)
			continue
		}
		s.tools[name] = string(key)
		s.mcp.AddTool(tool, s.call)
	}
	return nil
}

// mcpTool is a hook's tool definition as MCP lists it: the parameters are
// its input schema as the hook gave them.
func mcpTool(def protocol.ToolDefinition) (*mcp.Tool, error) {
	schema := map[string]any{"type": "object"}
	if p := def.Function.Parameters; len(p) > 0 && string(p) != "null" {
		if err := json.Unmarshal(p, &schema); err != nil {
			return nil, fmt.Errorf("its parameters are not a JSON object: %v", err)
		}
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf("its parameters are not a JSON Schema of type object (MCP requires one)")
	}
	t := &mcp.Tool{Name: def.Function.Name, InputSchema: schema}
	if def.Function.Description != nil {
		t.Description = *def.Function.Description
	}
	return t, nil
}

// call answers tools/call with the hook's before_tool decision.
func (s *Server) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := map[string]any{}
	if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, &jsonrpc.Error{Code: codeInvalidParams, Message: fmt.Sprintf("arguments of %s must be a JSON object: %v", req.Params.Name, err)}
		}
	}
	name := req.Params.Name
	_, d := s.rt.BeforeTool(ctx, protocol.BeforeToolParams{Meta: meta(), Tool: name, Arguments: args})
	defer func() {
		// The hook may offer other tools now, or none: a crash restarted it.
		if err := s.sync(context.WithoutCancel(ctx)); err != nil {
			slog.New(s.stderr).Warn("tools not refreshed", "hook", s.name, "error", err)
		}
	}()
	switch {
	case d.Action == protocol.ActionRespond && d.Result != nil:
		return result(*d.Result), nil
	case d.Action == protocol.ActionDenyTool:
		return failed(fmt.Sprintf("hook %s denied %s: %s", d.Hook, name, reasonOr(d.Reason, "no reason given"))), nil
	case d.Continue():
		return failed(fmt.Sprintf("hook %s does not answer %s: it let the call through (continue), and there is no host tool behind this server to run it", s.name, name)), nil
	default:
		return failed(fmt.Sprintf("hook %s ended the call to %s with %s: %s", d.Hook, name, d.Action, reasonOr(d.Reason, "no reason given"))), nil
	}
}

// result is a hook's tool result as MCP content: for_llm as text, each
// media reference as a resource link.
func result(r protocol.ToolResult) *mcp.CallToolResult {
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.ForLLM}}}
	for _, ref := range r.Media {
		out.Content = append(out.Content, &mcp.ResourceLink{URI: ref, Name: ref})
	}
	out.IsError = r.IsError != nil && *r.IsError
	return out
}

// codeInvalidParams and codeInternalError are JSON-RPC's.
const (
	codeInvalidParams = -32602
	codeInternalError = -32603
)

// internalError is err as a JSON-RPC error with the spec's code: a plain
// error would reach the client with code 0.
func internalError(err error) error {
	return &jsonrpc.Error{Code: codeInternalError, Message: err.Error()}
}

func failed(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

func reasonOr(reason, none string) string {
	if reason == "" {
		return none
	}
	return reason
}

func meta() *protocol.Meta {
	agent, session := "hookwire-mcp", "mcp"
	return &protocol.Meta{AgentID: &agent, SessionKey: &session}
}

// lastLine passes log records on, and keeps the last line the hook wrote on
// stderr (the runtime logs each with the attribute stream=stderr): the
// likeliest explanation of a hook that did not start.
type lastLine struct {
	next slog.Handler
	last *lastText
}

type lastText struct {
	mu   sync.Mutex
	line string
}

func newLastLine(next slog.Handler) *lastLine { return &lastLine{next: next, last: &lastText{}} }

func (h *lastLine) get() string {
	h.last.mu.Lock()
	defer h.last.mu.Unlock()
	return h.last.line
}

func (h *lastLine) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *lastLine) Handle(ctx context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "stream" && a.Value.String() == "stderr" {
			h.last.mu.Lock()
			h.last.line = r.Message
			h.last.mu.Unlock()
			return false
		}
		return true
	})
	return h.next.Handle(ctx, r)
}

func (h *lastLine) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &lastLine{next: h.next.WithAttrs(attrs), last: h.last}
}

func (h *lastLine) WithGroup(name string) slog.Handler {
	return &lastLine{next: h.next.WithGroup(name), last: h.last}
}
