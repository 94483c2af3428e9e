package examples

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The agents that speak OpenAI's APIs, run here as Claude Code and Gemini
// CLI are: Codex CLI (the Responses API, through a custom provider), Qwen
// Code (chat completions, through an OpenAI-compatible base URL) and GitHub
// Copilot CLI (chat completions, offline with its own provider: BYOK).

const (
	codexCLIVersion   = "0.171.0"
	qwenCodeVersion   = "0.24.4"
	copilotCLIVersion = "1.0.102"
)

// bridgeCommand is the shell command an agent runs for each event: the
// bridge, in a folder of its own with a short name (a Unix socket's path
// is limited to about 100 bytes), for the hook.
func bridgeCommand(t *testing.T, agent string, hook []string, flags ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var quoted []string
	args := append(append([]string{bridgeCLI, "--dir", dir, "--timeout", "2s"}, flags...), agent, "--")
	for _, arg := range append(args, hook...) {
		quoted = append(quoted, shellQuote(arg))
	}
	return strings.Join(quoted, " ")
}

// openAIResponses answers the Responses API as Codex CLI calls it, a
// stream of events: a request that offers exec_command and has no
// function_call_output yet gets a call of it for each of commands, in one
// answer; any other, a short text.
func openAIResponses(commands []string) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		var req struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			Input []struct {
				Type string `json:"type"`
			} `json:"input"`
		}
		json.Unmarshal(body, &req)
		offers, answered := false, false
		for _, tool := range req.Tools {
			offers = offers || tool.Name == "exec_command"
		}
		for _, item := range req.Input {
			answered = answered || item.Type == "function_call_output"
		}
		output := []any{map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "Done.", "annotations": []any{}}}}}
		if offers && !answered {
			output = nil
			for i, command := range commands {
				args, _ := json.Marshal(map[string]any{"cmd": command})
				output = append(output, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", i+1), "call_id": fmt.Sprintf("call_%d", i+1),
					"name": "exec_command", "arguments": string(args), "status": "completed"})
			}
		}
		response := map[string]any{"id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "scripted", "output": output,
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(name string, data map[string]any) {
			data["type"] = name
			line, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, line)
		}
		event("response.created", map[string]any{"response": map[string]any{"id": "resp_1", "object": "response", "status": "in_progress", "output": []any{}}})
		for i, item := range output {
			event("response.output_item.added", map[string]any{"output_index": i, "item": item})
			event("response.output_item.done", map[string]any{"output_index": i, "item": item})
		}
		event("response.completed", map[string]any{"response": response})
	}
}

// codexCLI runs Codex CLI with the hook command for PreToolUse and
// PermissionRequest (and the end of the session) and returns what it
// printed. Codex CLI runs a hook only once its user has reviewed it (in
// its TUI's /hooks): the run passes --dangerously-bypass-hook-trust.
// Codex CLI refuses an rm -rf itself, whatever its hooks say: the model
// asks for rm -r, which it runs.
func (a *agentRun) codexCLI(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	entry := []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": bridgeCommand(t, "codex-cli", hook), "timeout": 60}}}}
	events := map[string]any{"PreToolUse": entry, "PermissionRequest": entry, "SessionEnd": entry}
	if a.afterTool {
		events["PostToolUse"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	return a.runCodexCLI(t, events, "", env...)
}

// runCodexCLI runs Codex CLI in the project against the scripted model,
// with events as the hooks of its ~/.codex/hooks.json and more appended to
// its config.toml, and returns what it printed.
func (a *agentRun) runCodexCLI(t *testing.T, events map[string]any, more string, env ...string) (string, *modelServer) {
	t.Helper()
	var commands []string
	for _, command := range a.answer() {
		commands = append(commands, strings.Replace(command, "rm -rf ", "rm -r ", 1))
	}
	model := serveModel(t, openAIResponses(commands))
	codexHome := filepath.Join(a.home, ".codex")
	os.MkdirAll(codexHome, 0o755)
	data, _ := json.Marshal(map[string]any{"hooks": events})
	os.WriteFile(filepath.Join(codexHome, "hooks.json"), data, 0o644)
	os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(codexConfig(model.url)+more), 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBin(t, "codex"), "exec", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
		"--skip-git-repo-check", "Remove the precious folder.")
	cmd.Dir = a.project
	cmd.Env = append([]string{"HOME=" + a.home, "CODEX_HOME=" + codexHome, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "SCRIPTED_API_KEY=scripted"}, env...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Codex CLI did not end within 120 s:\n%s", out)
	}
	return string(out), model
}

// codexConfig is Codex CLI's config.toml with hooks on and its model the
// scripted one at url.
func codexConfig(url string) string {
	return fmt.Sprintf(`model = "scripted"
model_provider = "scripted"
check_for_update_on_startup = false

[features]
hooks = true

[model_providers.scripted]
name = "scripted"
base_url = "%s/v1"
env_key = "SCRIPTED_API_KEY"
wire_api = "responses"
`, url)
}

// openAIChat answers chat completions as Qwen Code calls them, streamed
// or not: a request that offers tool and has no tool message yet gets a
// call of it for each of commands, in one answer; any other, a short text.
func openAIChat(tool string, commands []string) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return openAIChatWith(tool, commands, func(command string) map[string]any {
		return map[string]any{"command": command, "description": "Remove the scratch folder"}
	})
}

// openAIChatWith is openAIChat whose tool calls carry the arguments args
// gives for each command, for an agent whose shell tool takes others.
func openAIChatWith(tool string, commands []string, args func(command string) map[string]any) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		var req struct {
			Stream bool `json:"stream"`
			Tools  []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		offers, answered := false, false
		for _, t := range req.Tools {
			offers = offers || t.Function.Name == tool
		}
		for _, m := range req.Messages {
			answered = answered || m.Role == "tool"
		}
		message := map[string]any{"role": "assistant", "content": "Done."}
		finish := "stop"
		if offers && !answered {
			var toolCalls []any
			for i, command := range commands {
				arguments, _ := json.Marshal(args(command))
				toolCalls = append(toolCalls, map[string]any{"index": i, "id": fmt.Sprintf("call_%d", i+1), "type": "function",
					"function": map[string]any{"name": tool, "arguments": string(arguments)}})
			}
			message, finish = map[string]any{"role": "assistant", "content": nil, "tool_calls": toolCalls}, "tool_calls"
		}
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "chat_1", "object": "chat.completion", "created": 1, "model": "scripted",
				"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any, usage any) {
			line, _ := json.Marshal(map[string]any{"id": "chat_1", "object": "chat.completion.chunk", "created": 1, "model": "scripted",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}, "usage": usage})
			fmt.Fprintf(w, "data: %s\n\n", line)
		}
		chunk(message, nil, nil)
		chunk(map[string]any{}, finish, usage)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// qwenCode runs Qwen Code with the hook command for PreToolUse and
// PermissionRequest and returns what it printed. A headless run (-p) sends
// no SessionEnd: the session's server stops after a short --idle.
func (a *agentRun) qwenCode(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("run_shell_command", a.answer()))
	entry := []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": bridgeCommand(t, "qwen-code", hook, "--idle", "5s"), "timeout": 60}}}}
	events := map[string]any{"PreToolUse": entry, "PermissionRequest": entry, "SessionEnd": entry}
	if a.afterTool {
		events["PostToolUse"] = entry
	}
	if a.stop {
		events["Stop"] = entry
	}
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"hooks":     events,
	}
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(a.home, ".qwen"), 0o755)
	os.WriteFile(filepath.Join(a.home, ".qwen", "settings.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBin(t, "qwen"), "-p", "Remove the precious folder.", "--approval-mode", "yolo", "--output-format", "json")
	cmd.Dir = a.project
	cmd.Env = append([]string{
		"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"OPENAI_BASE_URL=" + model.url + "/v1", "OPENAI_API_KEY=scripted", "OPENAI_MODEL=scripted",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
	}, env...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Qwen Code did not end within 120 s:\n%s", out)
	}
	return string(out), model
}

// copilotCLI runs GitHub Copilot CLI offline (COPILOT_OFFLINE, with a
// provider of its own on loopback), with the hook command for preToolUse
// and permissionRequest as the user's hooks (settings.json: Copilot CLI
// 1.0.102 run this way loads no .github/hooks), and returns what it printed.
func (a *agentRun) copilotCLI(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, openAIChat("bash", a.answer()))
	entry := []any{map[string]any{"type": "command", "bash": bridgeCommand(t, "copilot-cli", hook), "timeoutSec": 30}}
	events := map[string]any{"preToolUse": entry, "permissionRequest": entry, "sessionEnd": entry}
	if a.afterTool {
		events["postToolUse"] = entry
	}
	data, _ := json.Marshal(map[string]any{"trustedFolders": []string{a.project}, "hooks": events})
	os.MkdirAll(filepath.Join(a.home, ".copilot"), 0o700)
	os.WriteFile(filepath.Join(a.home, ".copilot", "settings.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBin(t, "copilot"), append([]string{"-p", "Remove the precious folder.", "--allow-all-tools"}, a.agentFlags...)...)
	cmd.Dir = a.project
	cmd.Env = append([]string{
		"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_BASE_URL=" + model.url + "/v1", "COPILOT_PROVIDER_API_KEY=scripted", "COPILOT_MODEL=scripted",
	}, env...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Copilot CLI did not end within 120 s:\n%s", out)
	}
	return string(out), model
}
