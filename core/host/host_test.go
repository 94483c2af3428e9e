package host

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

func TestParseKnowsEveryHostAndNamesThemWhenItDoesNot(t *testing.T) {
	for name, want := range map[string]string{"": "reference", "reference": "reference", "picoclaw": "picoclaw", "claude-code": "claude-code", "cline": "cline", "gemini-cli": "gemini-cli",
		"codex-cli": "codex-cli", "copilot-cli": "copilot-cli", "cursor": "cursor", "factory-droid": "factory-droid", "goose": "goose", "kilo-code": "kilo-code", "kimi-cli": "kimi-cli", "mistral-vibe": "mistral-vibe", "opencode": "opencode", "openhands": "openhands", "qwen-code": "qwen-code", "windsurf": "windsurf"} {
		if h, err := Parse(name); err != nil || h.Name != want {
			t.Errorf("Parse(%q) = %v, %v", name, h, err)
		}
	}
	if _, err := Parse("claw"); err == nil || err.Error() != `unknown host "claw" (known: reference, picoclaw, claude-code, cline, codex-cli, copilot-cli, cursor, factory-droid, gemini-cli, goose, kilo-code, kimi-cli, mistral-vibe, opencode, openhands, qwen-code, windsurf)` {
		t.Errorf("err = %v", err)
	}
}

func TestGrantedIsTheListUnderReferenceAndPairsUnderPicoClaw(t *testing.T) {
	if got := Reference.Granted([]string{"before_tool"}); !slices.Equal(got, []string{"before_tool"}) {
		t.Errorf("reference: %q", got)
	}
	if got := PicoClaw.Granted([]string{"before_tool", "approve_tool"}); !slices.Equal(got, []string{"before_tool", "approve_tool", "after_tool"}) {
		t.Errorf("picoclaw: %q", got)
	}
}

// What PicoClaw makes of each reply that meets one of its fixed facts, as
// conformance and the runtime's transcript say it; nothing under Reference.
func TestPicoClawDiscardsSayWhatItMakesOfEachReply(t *testing.T) {
	sys := protocol.BeforeLLMParams{Model: "m", Messages: []protocol.Message{{Role: "system", Content: ptr("sys")}, {Role: "user", Content: ptr("card 4111")}}}
	calls := protocol.AfterLLMParams{Model: "m", Response: protocol.LLMResponse{ToolCalls: []protocol.ToolCall{{ID: ptr("c1"), Function: protocol.FunctionCall{Name: "exec", Arguments: "{}"}}}}}
	for _, c := range []struct {
		method string
		params any
		reply  string
		want   []string
	}{
		{protocol.MethodBeforeLLM, sys, `{"action":"modify","request":{"model":"m","messages":[{"role":"system","content":"terse"},{"role":"user","content":"card [x]"}]}}`, []string{"system messages changed: PicoClaw restores the whole message list"}},
		{protocol.MethodAfterLLM, calls, `{"action":"modify","response":{"model":"m","response":{"tool_calls":[{"id":"c1","function":{"name":"exec","arguments":"{}"}}]}}}`, []string{"tool calls exec lost their names and arguments"}},
		{protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "exec"}, `{"action":"respond"}`, []string{"respond without a result taken as continue"}},
		{protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "exec"}, `{"action":"respond","result":null}`, []string{"respond without a result taken as continue"}},
		{protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "exec"}, `{"action":"frobnicate"}`, []string{`unknown action "frobnicate" taken as continue`}},
		{protocol.MethodAfterTool, protocol.AfterToolParams{Tool: "exec"}, `{"action":"abort_turn","reason":"r"}`, []string{"reason dropped: PicoClaw does not pass on the reason of abort_turn"}},
		{protocol.MethodAfterTool, protocol.AfterToolParams{Tool: "exec"}, `{"action":"hard_abort"}`, []string{"hard_abort: PicoClaw also rolls the session's history back"}},
		{protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "exec"}, `{"action":"deny_tool","reason":"no"}`, nil},
		{protocol.MethodBeforeTool, protocol.BeforeToolParams{Tool: "exec"}, `{"action":"respond","result":{"for_llm":"x"}}`, nil},
	} {
		got := PicoClaw.Discards(c.method, c.params, json.RawMessage(c.reply))
		if len(got) != len(c.want) {
			t.Errorf("%s %s: %q, want %q", c.method, c.reply, got, c.want)
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s %s: %q, want %q", c.method, c.reply, got[i], w)
			}
		}
		if ref := Reference.Discards(c.method, c.params, json.RawMessage(c.reply)); ref != nil {
			t.Errorf("reference discards %q", ref)
		}
	}
}

func TestPicoClawReadsTheHelloReplyAsPicoClawDoes(t *testing.T) {
	for raw, ok := range map[string]bool{`{"ok":true}`: true, `{"ok":false}`: true, `null`: true, ``: true, `{}`: true, `"ready"`: false, `3`: false, `[]`: false} {
		if err := PicoClaw.ReadHello(json.RawMessage(raw), nil); (err == nil) != ok {
			t.Errorf("hello result %s: %v", raw, err)
		}
	}
}

// Whatever bytes a hook writes, PicoClaw's reading of them neither panics
// nor turns them into anything but themselves, a continue, or the same
// members as a modify (a continue that carries an object).
func FuzzPicoClawReads(f *testing.F) {
	for _, s := range []string{`{"action":"respond"}`, `{"action":"nope"}`, `{"action":7}`, `[`, `null`, `{"action":"respond","result":null}`,
		`{"call":{"tool":"x"}}`, `{"action":"modify","response":{"model":"m"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []string{protocol.MethodBeforeTool, protocol.MethodAfterLLM, protocol.MethodApproveTool} {
			out, _ := PicoClaw.Reads(m, json.RawMessage(s))
			if string(out) != s && string(out) != `{"action":"continue"}` && !sameAsModify(s, out) {
				t.Fatalf("%s: %q read as %q", m, s, out)
			}
			_ = PicoClaw.ReadHello(json.RawMessage(s), nil)
			PicoClaw.Discards(m, nil, json.RawMessage(s))
		}
	})
}

func ptr[T any](v T) *T { return &v }

// sameAsModify reports whether out has the members of in, its action
// modify.
func sameAsModify(in string, out []byte) bool {
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal(out, &b) != nil || string(b["action"]) != `"modify"` {
		return false
	}
	delete(a, "action")
	delete(b, "action")
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Gemini CLI 0.61.0 reads no new tool output: the model reads a blocked
// result, an error, in its place.
func TestUnderGeminiCLIANewToolOutputIsABlockedResult(t *testing.T) {
	res := protocol.AfterToolModify{Action: protocol.ActionModify, Result: protocol.AfterToolParams{Tool: "run_shell_command", Result: protocol.ToolResult{ForLLM: "TOKEN=***"}}}
	got, notes := GeminiCLI.Acts(protocol.MethodAfterTool, protocol.AfterToolParams{}, res)
	out := got.(protocol.AfterToolModify).Result.Result
	if out.ForLLM != "Tool result blocked: TOKEN=***" || out.IsError == nil || !*out.IsError || len(notes) != 1 {
		t.Errorf("got %+v, notes %q", out, notes)
	}
	if _, notes := ClaudeCode.Acts(protocol.MethodAfterTool, protocol.AfterToolParams{}, res); len(notes) != 0 {
		t.Errorf("Claude Code takes a new output as it is; notes %q", notes)
	}
}

// What the agents of Claude Code's form do with a new tool output and a
// rewritten call, where they differ from Claude Code.
func TestTheClaudeLikeAgentsTakeANewOutputAndANewCallEachTheirWay(t *testing.T) {
	output := protocol.AfterToolModify{Action: protocol.ActionModify, Result: protocol.AfterToolParams{Tool: "run_shell_command", Result: protocol.ToolResult{ForLLM: "TOKEN=***"}}}
	ran := protocol.AfterToolParams{Tool: "run_shell_command", Result: protocol.ToolResult{ForLLM: "TOKEN=secret"}}
	got, _ := QwenCode.Acts(protocol.MethodAfterTool, ran, output)
	if r := got.(protocol.AfterToolModify).Result.Result; r.ForLLM != "TOKEN=***" || r.IsError == nil || !*r.IsError {
		t.Errorf("Qwen Code: %+v, want the new text as an error", r)
	}
	got, _ = FactoryDroid.Acts(protocol.MethodAfterTool, ran, output)
	if r := got.(protocol.AfterToolModify).Result.Result; r.ForLLM != "TOKEN=secret\nTOKEN=***" {
		t.Errorf("Factory Droid: %q, want the output, then the new text", r.ForLLM)
	}
	got, _ = CodexCLI.Acts(protocol.MethodAfterTool, ran, output)
	if r := got.(protocol.AfterToolModify).Result.Result; r.ForLLM != "TOKEN=***" {
		t.Errorf("Codex CLI: %q, want the new text in place of the output", r.ForLLM)
	}
	call := protocol.BeforeToolParams{Tool: "run_shell_command", Arguments: map[string]any{"command": "rm -rf /"}}
	rewritten := protocol.BeforeToolModify{Action: protocol.ActionModify, Call: protocol.BeforeToolParams{Tool: "run_shell_command", Arguments: map[string]any{"command": "ls"}}}
	if got, notes := QwenCode.Acts(protocol.MethodBeforeTool, call, rewritten); got.(protocol.DenyTool).Reason == "" || len(notes) != 1 {
		t.Errorf("Qwen Code: %+v %q, want the rewritten call denied", got, notes)
	}
	if got, _ := CodexCLI.Acts(protocol.MethodBeforeTool, call, rewritten); got.(protocol.BeforeToolModify).Call.Arguments["command"] != "ls" {
		t.Errorf("Codex CLI: %+v, want the rewritten call", got)
	}
}

// The agents' hosts the tests use by name.
var (
	ClaudeCode   = mustParse("claude-code")
	GeminiCLI    = mustParse("gemini-cli")
	CodexCLI     = mustParse("codex-cli")
	FactoryDroid = mustParse("factory-droid")
	QwenCode     = mustParse("qwen-code")
)

func mustParse(name string) *Host {
	h, err := Parse(name)
	if err != nil {
		panic(err)
	}
	return h
}

// TestEachAgentOfClaudeCodesFormIsNamedInItsOwnNotes: a note on a
// dropped tools change names the agent the hook runs under.
func TestEachAgentOfClaudeCodesFormIsNamedInItsOwnNotes(t *testing.T) {
	added := protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: protocol.BeforeLLMParams{Tools: []protocol.ToolDefinition{{Type: "function", Function: protocol.FunctionDefinition{Name: "a_plugin_tool"}}}}}
	for _, h := range []*Host{ClaudeCode, FactoryDroid, QwenCode, CodexCLI} {
		_, notes := h.Acts(protocol.MethodBeforeLLM, protocol.BeforeLLMParams{}, added)
		if len(notes) != 1 || !strings.Contains(notes[0], h.Title+" takes no tools") {
			t.Errorf("%s: %q", h.Title, notes)
		}
	}
}
