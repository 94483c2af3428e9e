package examples

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// longOutput is a tool output over 1 MiB, the line PicoClaw's host reads,
// with a secret near its start: the secret redactor's modify of it does not
// fit in a line.
func longOutput() string {
	return "SECRET_KEY=hunter2\n" + strings.Repeat("step 12 of the build: ok\n", 45_000) // 1.07 MiB
}

// checkRedactedAndCut fails unless forLLM is the long output redacted and
// cut to fit, as the SDKs cut an after_tool modify.
func checkRedactedAndCut(t *testing.T, forLLM string) {
	t.Helper()
	if strings.Contains(forLLM, "hunter2") {
		t.Fatalf("the secret reached the LLM: %.200q", forLLM)
	}
	if !strings.HasPrefix(forLLM, "SECRET_KEY=***\nstep 12") || !strings.HasSuffix(forLLM, " bytes cut to fit the host's line]") {
		t.Fatalf("for_llm is not the redacted output cut to fit: %.100q ... %q", forLLM, forLLM[max(0, len(forLLM)-100):])
	}
}

// The secret redactor's answer to a tool output longer than the host reads
// in a line is the redacted output cut to fit: before, it was continue, and
// the secret reached the LLM. Under the reference host with 1 MiB lines,
// and under PicoClaw's, which announces no limit and reads 1 MiB. (The
// demo agent's read_file returns 64 KiB at most: the runtime is called as
// an agent whose tool returned more.)
func TestALongToolOutputsSecretNeverReachesTheLLM(t *testing.T) {
	bin := goHook(t, filepath.Join("secret-redactor", "go"))
	hooks, _ := json.Marshal(map[string]any{"hooks": map[string]any{
		"enabled": true,
		"processes": map[string]any{"secret_redactor": map[string]any{
			"enabled":   true,
			"command":   []string{bin},
			"intercept": []string{"after_tool"},
		}},
	}})
	for name, opts := range map[string]runtime.Options{
		"reference": {MaxLineSize: 1 << 20},
		"picoclaw":  {Host: host.PicoClaw},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := runtime.ParseConfig(hooks)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := runtime.New(cfg, opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if err := rt.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			ran, d := rt.AfterTool(ctx, protocol.AfterToolParams{
				Tool:      "read_file",
				Arguments: map[string]any{"path": "build.log"},
				Result:    protocol.ToolResult{ForLLM: longOutput()},
			})
			if d.Action != protocol.ActionContinue {
				t.Fatalf("got %+v, want the modified result", d)
			}
			checkRedactedAndCut(t, ran.Result.ForLLM)
		})
	}
}
