package runtime_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

func ptr[T any](v T) *T { return &v }

// commandGate judges commands only: it denies the dangerous ones, lets
// make run with -n (so nothing is built), and has no opinion on the rest.
type commandGate struct{}

func (commandGate) ApproveTool(_ context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	if req.ToolKind == nil || *req.ToolKind != protocol.ToolExecute {
		return protocol.ApproveToolResult{Abstain: ptr(true)}, nil
	}
	cmd, _ := req.Arguments["command"].(string)
	switch {
	case strings.Contains(cmd, "rm -rf"):
		return protocol.ApproveToolResult{Reason: ptr("dangerous command")}, nil
	case strings.HasPrefix(cmd, "make "):
		return protocol.ApproveToolResult{Approved: true, Arguments: map[string]any{"command": strings.Replace(cmd, "make ", "make -n ", 1)}}, nil
	}
	return protocol.ApproveToolResult{Abstain: ptr(true)}, nil
}

// readerGate lets read-only tools run and has no opinion on the others.
type readerGate struct{}

func (readerGate) ApproveTool(_ context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	if req.ToolKind != nil && *req.ToolKind == protocol.ToolReadOnly {
		return protocol.ApproveToolResult{Approved: true}, nil
	}
	return protocol.ApproveToolResult{Abstain: ptr(true)}, nil
}

// Approvers that each judge what they know and abstain on the rest: a
// call nobody judged falls to hooks.defaults.approval, deny here.
func ExampleRuntime_ApproveTool() {
	cfg, err := runtime.ParseConfig([]byte(`{"hooks": {"enabled": true, "defaults": {"approval": "deny"}}}`))
	if err != nil {
		log.Fatal(err)
	}
	rt, err := runtime.New(cfg, runtime.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range []runtime.InProcess{
		{Name: "commands", Hook: commandGate{}},
		{Name: "readers", Priority: 1, Hook: readerGate{}},
	} {
		if err := rt.Use(h); err != nil {
			log.Fatal(err)
		}
	}
	if err := rt.Start(context.Background()); err != nil {
		log.Fatal(err)
	}
	defer rt.Close()

	execute, write := protocol.ToolExecute, protocol.ToolWrite
	for _, call := range []protocol.ApproveToolParams{
		{Tool: "shell", ToolKind: &execute, Arguments: map[string]any{"command": "rm -rf /"}},
		{Tool: "shell", ToolKind: &execute, Arguments: map[string]any{"command": "make deploy"}},
		{Tool: "read_file", ToolKind: ptr(protocol.ToolReadOnly), Arguments: map[string]any{"path": "notes.txt"}},
		{Tool: "write_file", ToolKind: &write, Arguments: map[string]any{"path": "notes.txt"}},
	} {
		d := rt.ApproveTool(context.Background(), call)
		switch {
		case !d.Continue() && d.ByDefault:
			fmt.Printf("%s: denied by default (%s)\n", call.Tool, d.Reason)
		case !d.Continue():
			fmt.Printf("%s: denied by %s: %s\n", call.Tool, d.Hook, d.Reason)
		case d.Arguments != nil:
			fmt.Printf("%s: approved, runs with %v\n", call.Tool, d.Arguments)
		default:
			fmt.Printf("%s: approved\n", call.Tool)
		}
	}
	// Output:
	// shell: denied by commands: dangerous command
	// shell: approved, runs with map[command:make -n deploy]
	// read_file: approved
	// write_file: denied by default (every approver abstained; hooks.defaults.approval is deny)
}
