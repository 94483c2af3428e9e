package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A hook's context reaches the model with its next request and its message
// the user, under the reference host; PicoClaw knows neither.
func TestAHooksContextReachesTheModelAndItsMessageTheUser(t *testing.T) {
	answer := "hook.after_tool=" + `{"action":"continue","context":"the card number is private","message":"checked echo_text"}`
	_, out, errOut := runAs(t, "reference", []string{"after_tool"}, "-result", answer)
	expect(t, "reference", out, errOut,
		"message   h: checked echo_text\n",
		"llm #2    reads context from hooks: the card number is private\n",
		"user       the card number is private\n")
	_, out, errOut = runAs(t, "picoclaw", []string{"after_tool"}, "-result", answer)
	expect(t, "picoclaw", out, errOut, "!message   h:", "!the card number is private", "context and message ignored: PicoClaw knows neither")
}

// Context on the answer that would end the turn keeps it going, so that the
// model reads it: the hook asks once, and the model answers again.
func TestContextOnTheLastAnswerKeepsTheTurnGoing(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "keep_going.py")
	if err := os.WriteFile(hook, []byte(`import json, sys
asked = False
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {"action": "continue"}
    if msg["method"] == "hook.hello":
        result = {"ok": True, "name": "keep-going", "modes": ["llm"]}
    elif msg["method"] == "hook.after_llm" and not msg["params"]["response"].get("tool_calls") and not asked:
        asked = True
        result["context"] = "Check your answer once more."
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	hooks := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{"processes": map[string]any{
		"h": map[string]any{"enabled": true, "command": []string{"python3", hook}, "intercept": []string{"after_llm"}},
	}}})
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "2+2?", "replies": []any{
		map[string]any{"content": "5"}, map[string]any{"content": "4"},
	}})
	code, out, errOut := hookwire(t, "", "run", "--messages", "--hooks", hooks, scenario)
	expect(t, "reference", out, errOut,
		"llm #1    says: 5\n",
		"llm #2    reads context from hooks: Check your answer once more.\n",
		"llm #2    says: 4\n",
		"done      4")
	if code != exitOK {
		t.Errorf("exit %d", code)
	}
}
