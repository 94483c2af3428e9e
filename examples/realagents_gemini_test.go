package examples

import (
	"bytes"
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

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/install"
	"github.com/hookwire/hookwire/core/protocol"
)

const geminiCLIVersion = "0.61.0"

// gemini answers the Gemini API as Gemini CLI calls it: the model router's
// question gets a JSON verdict, a request that declares run_shell_command
// and has no function response yet gets a call of it for each of commands,
// in one answer, and any other a short text.
func gemini(commands []string) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		text := func(s string) map[string]any { return map[string]any{"text": s} }
		parts := []any{text("Done.")}
		switch {
		case bytes.Contains(body, []byte("model_choice")) || bytes.Contains(body, []byte("complexity")):
			parts = []any{text(`{"reasoning": "a short task", "model_choice": "flash", "complexity_score": 1}`)}
		case bytes.Contains(body, []byte(`"run_shell_command"`)) && !bytes.Contains(body, []byte(`"functionResponse"`)):
			parts = nil
			for _, command := range commands {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": command, "description": "Remove the scratch folder"}}})
			}
		}
		response := map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
			"modelVersion":  "gemini-scripted",
		}
		data, _ := json.Marshal(response)
		if strings.Contains(r.URL.Path, "streamGenerateContent") {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", data)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}
}

// geminiCLI runs Gemini CLI with the hook command for BeforeTool (and the
// end of the session) and returns what it printed.
func (a *agentRun) geminiCLI(t *testing.T, hook []string, env ...string) (string, *modelServer) {
	t.Helper()
	model := serveModel(t, gemini(a.answer()))
	bridgeDir, err := os.MkdirTemp("", "hwa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bridgeDir) })
	var quoted []string
	for _, arg := range append([]string{bridgeCLI, "--dir", bridgeDir, "--timeout", "2s", "gemini-cli", "--"}, hook...) {
		quoted = append(quoted, shellQuote(arg))
	}
	entry := []any{map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"type": "command", "name": "guard", "command": strings.Join(quoted, " "), "timeout": 60000}}}}
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"hooks":     map[string]any{"BeforeTool": entry, "SessionEnd": entry},
	}
	if a.afterTool {
		settings["hooks"].(map[string]any)["AfterTool"] = entry
	}
	if a.stop {
		// The events `hookwire install` names for a hook of the llm mode:
		// the test runs the agent with them, so that what install leaves
		// out is what the agent does not get.
		for _, event := range install.Events(agents.ByName("gemini-cli"), []protocol.Mode{protocol.ModeLLM}) {
			settings["hooks"].(map[string]any)[event] = entry
		}
	}
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(a.home, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(a.home, ".gemini", "settings.json"), data, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBin(t, "gemini"), "-p", "Remove the precious folder.", "--yolo", "--output-format", "json")
	cmd.Dir = a.project
	cmd.Env = append([]string{
		"HOME=" + a.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"GOOGLE_GEMINI_BASE_URL=" + model.url, "GEMINI_API_KEY=scripted",
		"GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=true",
	}, env...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("Gemini CLI did not end within 120 s:\n%s", out)
	}
	return string(out), model
}
