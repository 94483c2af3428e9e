package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/hookwire/hookwire/core/protocol"
)

// Tool is a tool the agent runs itself.
type Tool interface {
	// Definition is what the LLM is told about the tool.
	Definition() protocol.ToolDefinition
	// Run runs the tool. A failure is a result with IsError set, which the
	// LLM sees like any other.
	Run(ctx context.Context, args map[string]any) protocol.ToolResult
}

// Describer is a Tool that tells approvers what a call would do: approvers
// receive the kind as tool_kind and the paths as affected_paths, and can
// judge a tool they do not know by name. Every built-in tool is one.
type Describer interface {
	// Describe returns the tool's kind and the files or folders a call with
	// these arguments would read or write (none when it touches none).
	Describe(args map[string]any) (protocol.ToolKind, []string)
}

// builtins are the tools a scenario may offer, by name; root is the folder
// read_file may read.
var builtins = map[string]func(root string) Tool{
	"echo_text": func(string) Tool { return EchoText{} },
	"read_file": func(root string) Tool { return ReadFile{Root: root} },
	"shell":     func(string) Tool { return Shell{} },
}

// defaultTools are offered when a scenario names none: shell stays out, so
// that it appears only where a scenario asks for it.
var defaultTools = []string{"echo_text", "read_file"}

// BuiltinNames lists the built-in tools, sorted.
func BuiltinNames() []string { return slices.Sorted(maps.Keys(builtins)) }

// Builtin makes the built-in tool of that name.
func Builtin(name, root string) (Tool, bool) {
	f, ok := builtins[name]
	if !ok {
		return nil, false
	}
	return f(root), true
}

// EchoText answers with its text argument.
type EchoText struct{}

func (EchoText) Definition() protocol.ToolDefinition {
	return function("echo_text", "Echo the given text back.", map[string]any{
		"type":       "object",
		"properties": map[string]any{"text": map[string]any{"type": "string", "description": "Text to echo"}},
		"required":   []any{"text"},
	})
}

func (EchoText) Run(_ context.Context, args map[string]any) protocol.ToolResult {
	text, ok := args["text"].(string)
	if !ok {
		return failure("echo_text: argument text must be a string")
	}
	return protocol.ToolResult{ForLLM: text}
}

func (EchoText) Describe(map[string]any) (protocol.ToolKind, []string) {
	return protocol.ToolReadOnly, nil
}

// ReadFile reads a text file under Root; no path can lead out of it, not
// even through a symbolic link.
type ReadFile struct {
	Root string
}

// maxRead caps what read_file returns to the LLM.
const maxRead = 64 << 10

func (ReadFile) Definition() protocol.ToolDefinition {
	return function("read_file", "Read a text file of the workspace.", map[string]any{
		"type":       "object",
		"properties": map[string]any{"path": map[string]any{"type": "string", "description": "Path relative to the workspace"}},
		"required":   []any{"path"},
	})
}

// Describe gives the file a call asks for, absolute, as the tool would read
// it; a path that leads out of Root is named as it is, though the tool
// refuses it, so that approvers see what was asked.
func (t ReadFile) Describe(args map[string]any) (protocol.ToolKind, []string) {
	path, ok := args["path"].(string)
	if !ok {
		return protocol.ToolReadOnly, nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(t.Root, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return protocol.ToolReadOnly, []string{path}
}

func (t ReadFile) Run(_ context.Context, args map[string]any) protocol.ToolResult {
	path, ok := args["path"].(string)
	if !ok {
		return failure("read_file: argument path must be a string")
	}
	root, err := os.OpenRoot(t.Root)
	if err != nil {
		return failure("read_file: " + err.Error())
	}
	defer root.Close()
	f, err := root.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", path, pe.Err)
		}
		return failure("read_file: " + err.Error())
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err != nil {
		return failure("read_file: " + err.Error())
	}
	if len(b) > maxRead {
		return protocol.ToolResult{ForLLM: string(b[:maxRead]) + fmt.Sprintf("\n[truncated at %d bytes]", maxRead)}
	}
	return protocol.ToolResult{ForLLM: string(b)}
}

// Shell stands for a tool that runs a command, for demonstrations of
// approvers that stop dangerous ones: it runs nothing, and answers with the
// command it would have run.
type Shell struct{}

func (Shell) Definition() protocol.ToolDefinition {
	return function("shell", "Run a shell command (a demonstration: nothing is run).", map[string]any{
		"type":       "object",
		"properties": map[string]any{"command": map[string]any{"type": "string", "description": "The command line"}},
		"required":   []any{"command"},
	})
}

func (Shell) Run(_ context.Context, args map[string]any) protocol.ToolResult {
	command, ok := args["command"].(string)
	if !ok {
		return failure("shell: argument command must be a string")
	}
	return protocol.ToolResult{ForLLM: "would run: " + command}
}

func (Shell) Describe(map[string]any) (protocol.ToolKind, []string) { return protocol.ToolExecute, nil }

func function(name, description string, parameters map[string]any) protocol.ToolDefinition {
	return protocol.ToolDefinition{Type: "function", Function: protocol.FunctionDefinition{
		Name: name, Description: ptr(description), Parameters: mustJSON(parameters),
	}}
}

// mustJSON encodes a schema written in this file, which always encodes.
func mustJSON(v map[string]any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

func failure(msg string) protocol.ToolResult {
	return protocol.ToolResult{ForLLM: msg, IsError: ptr(true)}
}
