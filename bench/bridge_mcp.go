package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// mcpSession is `hookwire bridge --mcp` as Claude Code runs it: a child on
// pipes, spoken to in MCP's JSON lines, asked each event by tools/call of
// its tool with the arguments an mcp_tool hook gives it.
type mcpSession struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	next int
}

// startMCP starts the server and initializes the MCP session.
func startMCP(argv []string) (*mcpSession, error) {
	cmd, in, out, err := startPiped(argv)
	if err != nil {
		return nil, err
	}
	s := &mcpSession{cmd: cmd, in: in, out: out}
	if _, err := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}}); err != nil {
		s.stop()
		return nil, err
	}
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func (s *mcpSession) send(msg map[string]any) error {
	line, _ := json.Marshal(msg)
	_, err := s.in.Write(append(line, '\n'))
	return err
}

// call sends a request and reads lines until its reply.
func (s *mcpSession) call(method string, params any) (json.RawMessage, error) {
	encoded, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return s.callEncoded(method, encoded)
}

// callEncoded is call with the params already encoded: the warm event's
// are encoded once, so that the time of a call is the server's and the
// hook's, as the warm floor's is, and not the bench's own encoding, which
// is cold after idle as well.
func (s *mcpSession) callEncoded(method string, params json.RawMessage) (json.RawMessage, error) {
	s.next++
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", s.next, method, params)
	if _, err := s.in.Write(line); err != nil {
		return nil, err
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &reply) != nil || reply.ID != s.next {
			continue // a notification
		}
		if reply.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, reply.Error)
		}
		return reply.Result, nil
	}
}

// denyParams are the params of a tools/call that asks about rm -rf in
// session, as Claude Code 2.1.331 substitutes the hook's input: strings,
// and the tool's input as its JSON text.
func denyParams(session string) json.RawMessage {
	params, _ := json.Marshal(map[string]any{"name": "event", "arguments": map[string]any{
		"text": map[string]string{"hook_event_name": "PreToolUse", "session_id": session, "cwd": "/", "tool_name": "Bash"},
		"json": map[string]string{"tool_input": `{"command":"rm -rf /"}`},
	}})
	return params
}

// deny asks about rm -rf with params (denyParams) and checks the hook
// output denies it.
func (s *mcpSession) deny(params json.RawMessage) error {
	result, err := s.callEncoded("tools/call", params)
	if err != nil {
		return err
	}
	if !bytes.Contains(result, []byte(`\"permissionDecision\":\"deny\"`)) {
		return fmt.Errorf("the MCP server did not deny rm -rf: %s", result)
	}
	return nil
}

func (s *mcpSession) stop() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// sessionLead is how long before a session's first event Claude Code has
// started its MCP servers: it starts them with the session, and the first
// event of a tool comes after the model's first answer, which takes longer.
const sessionLead = 500 * time.Millisecond

// mcpContenders are Claude Code's mcp_tool hooks served warm: the first
// event of a session, asked sessionLead after the server started, as
// Claude Code asks it, and timed from the call to its answer; the same
// asked at once, timed from starting the server (which waits for the hook
// to start); and a warm event, one tools/call on a running server. stop
// ends the warm session.
func mcpContenders(argv []string) (first, cold, warm *contender, stop func(), err error) {
	firstParams, warmParams := denyParams("first"), denyParams("warm")
	first = &contender{id: "mcp-first", label: "hookwire bridge --mcp, first event of a session, its server started with the session", timed: func() (time.Duration, error) {
		s, err := startMCP(argv)
		if err != nil {
			return 0, err
		}
		defer s.stop()
		time.Sleep(sessionLead)
		start := time.Now()
		err = s.deny(firstParams)
		return time.Since(start), err
	}}
	cold = &contender{id: "mcp-cold", label: "hookwire bridge --mcp, first event at the server's start (starts the server and the hook)", timed: func() (time.Duration, error) {
		start := time.Now()
		s, err := startMCP(argv)
		if err != nil {
			return 0, err
		}
		defer s.stop()
		err = s.deny(firstParams)
		return time.Since(start), err
	}}
	s, err := startMCP(argv)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	warm = &contender{id: "mcp-warm", label: "hookwire bridge --mcp, warm: an mcp_tool call, no process", do: func() error {
		return s.deny(warmParams)
	}}
	return first, cold, warm, s.stop, nil
}
