package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dangerousForms are the languages of the dangerous-command blocker.
var dangerousForms = []string{"python", "typescript", "go"}

// The LLM controls a tool's arguments: nesting them 1,200 deep beside
// `rm -rf /` must not make the guard miss its answer and the runtime fail
// open. In every language the turn ends, aborted by the hook, and no tool
// runs.
func TestA1200DeepRmRfCallAbortsTheTurnInEveryLanguage(t *testing.T) {
	var deep any = "bottom"
	for range 1200 {
		deep = []any{deep}
	}
	scenario := filepath.Join(t.TempDir(), "scenario.json")
	b, _ := json.Marshal(map[string]any{"tools": []string{"echo_text", "shell"}, "prompt": "clean up", "replies": []any{
		map[string]any{"tool_calls": []any{map[string]any{"name": "shell", "arguments": map[string]any{"command": "rm -rf /", "padding": deep}}}},
		map[string]any{"content": "all clean"},
	}})
	if err := os.WriteFile(scenario, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, form := range dangerousForms {
		t.Run(form, func(t *testing.T) {
			records, code, stderr := runJSON(t, filepath.Join("lifecycle-dangerous-commands", form, "hooks.json"), scenario, nil)
			for _, r := range ofType(records, "tool") {
				if r.Outcome == "ran" {
					t.Errorf("the tool ran: %.200s", r.line)
				}
			}
			ends := ofType(records, "turn_end")
			if code != 0 || len(ends) != 1 || ends[0].Status != "aborted" || ends[0].By != "dangerous_commands" || ends[0].Reason != "dangerous command blocked: rm -rf /" {
				t.Errorf("exit %d, turn ends %+v; want the turn aborted by the hook\nstderr:\n%.2000s", code, ends, stderr)
			}
		})
	}
}

// The three forms are one hook: on the example's scenario they give the
// same transcript, record for record, apart from timings.
func TestTheDangerousCommandBlockerIsTheSameInEveryLanguage(t *testing.T) {
	scenario := filepath.Join("lifecycle-dangerous-commands", "python", "scenario.json")
	var want []string
	for _, form := range dangerousForms {
		var got []string
		for _, r := range play(t, filepath.Join("lifecycle-dangerous-commands", form, "hooks.json"), scenario, nil) {
			got = append(got, r.line)
		}
		if want == nil {
			want = got
			continue
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s transcript:\n%s\nwant (python):\n%s", form, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
