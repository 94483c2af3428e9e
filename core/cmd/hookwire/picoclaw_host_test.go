package main

import (
	"os/exec"
	"strings"
	"testing"
)

// runAs plays a scenario that calls echo_text once under host, with one
// hook: the runtime's fixture given args, intercepting the stages named.
// It returns the exit code, the transcript and stderr.
func runAs(t *testing.T, host string, intercept []string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	hooks := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{"processes": map[string]any{
		"h": map[string]any{"enabled": true, "command": append([]string{fixtureBin}, args...), "intercept": intercept},
	}}})
	call := map[string]any{"tool_calls": []any{map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hi"}}}}
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "my card is 4111", "replies": []any{call, map[string]any{"content": "done"}}})
	return hookwire(t, "", "run", "--messages", "--host", host, "--hooks", hooks, scenario)
}

// expect fails t unless the transcript of each host holds (or, with a
// leading "!", lacks) each of its lines.
func expect(t *testing.T, host, out, errOut string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		l, lacks := strings.CutPrefix(l, "!")
		if strings.Contains(out+errOut, l) == lacks {
			t.Errorf("--host %s: the transcript should %s %q:\n%s%s", host, map[bool]string{false: "hold", true: "lack"}[lacks], l, out, errOut)
		}
	}
}

func TestUnderPicoClawTheStageOfTheSamePairIsSentToo(t *testing.T) {
	_, out, errOut := runAs(t, "reference", []string{"before_tool"})
	expect(t, "reference", out, errOut, "hooks     h (process, priority 0): before_tool\n", "!hook.after_tool")
	_, out, errOut = runAs(t, "picoclaw", []string{"before_tool"})
	expect(t, "picoclaw", out, errOut, "hooks     h (process, priority 0): before_tool, after_tool\n", "hook      h hook.after_tool echo_text -> continue")
}

func TestUnderPicoClawAFailedHelloFailsTheRunInPicoClawsWords(t *testing.T) {
	for _, hello := range []string{"error", "string"} {
		code, out, errOut := runAs(t, "picoclaw", []string{"before_tool"}, "-hello", hello)
		if code != exitFail || !strings.Contains(errOut, `hookwire run: start process hook "h": `) || strings.Contains(out, "done") {
			t.Errorf("hello %s: exit %d, want the run failed with PicoClaw's message:\n%s%s", hello, code, out, errOut)
		}
	}
	// Any object, ok: false included, is fine: PicoClaw reads none of it.
	code, out, errOut := runAs(t, "picoclaw", []string{"before_tool"}, "-hello", "refuse")
	if code != exitOK || !strings.Contains(out, "done      done") {
		t.Errorf("hello ok: false: exit %d, want the run done:\n%s%s", code, out, errOut)
	}
}

// A hello that never comes would block PicoClaw's start for good; the
// run says so after PicoClawHelloWait instead of hanging.
func TestUnderPicoClawAHelloThatNeverComesIsReportedNotHungOn(t *testing.T) {
	dir := t.TempDir()
	hooks := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{"processes": map[string]any{
		"h": map[string]any{"enabled": true, "command": []string{fixtureBin, "-hello", "hang"}, "intercept": []string{"before_tool"}},
	}}})
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "go", "replies": []any{map[string]any{"content": "done"}}})
	out, err := exec.Command(hookwireBin, "run", "--host", "picoclaw", "--hooks", hooks, scenario).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `start process hook "h": hook h: no hook.hello reply: PicoClaw would wait here forever`) {
		t.Errorf("%v, want the run failed saying PicoClaw would wait forever:\n%s", err, out)
	}
}

func TestUnderPicoClawAChangedSystemMessageRestoresTheWholeMessageList(t *testing.T) {
	redact := `hook.before_llm={"action":"modify","request":{"model":"m","messages":[{"role":"system","content":"Be terse."},{"role":"user","content":"my card is [redacted]"}]}}`
	_, out, errOut := runAs(t, "reference", []string{"before_llm"}, "-result", redact)
	expect(t, "reference", out, errOut, "my card is [redacted]", "!restores the whole message list")
	_, out, errOut = runAs(t, "picoclaw", []string{"before_llm"}, "-result", redact)
	expect(t, "picoclaw", out, errOut, "!my card is [redacted]", "my card is 4111",
		"host      h's system messages changed: PicoClaw restores the whole message list it sent, so every other message edit of this reply is undone too")
}

func TestUnderPicoClawAnAfterLLMModifyErasesTheNamesOfIDOnlyToolCalls(t *testing.T) {
	_, out, errOut := runAs(t, "reference", []string{"after_llm"}, "-tag", "seen")
	expect(t, "reference", out, errOut, `tool      echo_text {"text":"hi"} ran: hi`)
	_, out, errOut = runAs(t, "picoclaw", []string{"after_llm"}, "-tag", "seen")
	expect(t, "picoclaw", out, errOut, "!ran: hi", `unknown tool ""`,
		"host      h's tool calls echo_text lost their names and arguments")
}

func TestUnderPicoClawRespondWithoutAResultIsApprovedAndRun(t *testing.T) {
	respond := `hook.before_tool={"action":"respond"}`
	_, out, errOut := runAs(t, "reference", []string{"before_tool"}, "-result", respond)
	expect(t, "reference", out, errOut, "answered by hook h", "!ran: hi")
	_, out, errOut = runAs(t, "picoclaw", []string{"before_tool", "approve_tool"}, "-result", respond)
	expect(t, "picoclaw", out, errOut, "!answered by hook h", "hook      h hook.approve_tool echo_text", `tool      echo_text {"text":"hi"} ran: hi`,
		`host      h's respond without a result taken as continue: PicoClaw logs "respond action but no HookResult"`)
}

func TestUnderPicoClawAbortReasonsAreDroppedAndHardAbortRollsBack(t *testing.T) {
	for _, action := range []string{"abort_turn", "hard_abort"} {
		end := `hook.before_tool={"action":"` + action + `","reason":"over budget"}`
		_, out, errOut := runAs(t, "reference", []string{"before_tool"}, "-result", end)
		expect(t, "reference", out, errOut, "by hook h: over budget", "!PicoClaw")
		_, out, errOut = runAs(t, "picoclaw", []string{"before_tool"}, "-result", end)
		expect(t, "picoclaw", out, errOut, "!by hook h: over budget", "host      h's reason dropped: PicoClaw does not pass on the reason of "+action)
		rollback := "host      h's hard_abort: PicoClaw also rolls the session's history back"
		if action != "hard_abort" {
			rollback = "!" + rollback
		}
		expect(t, "picoclaw", out, errOut, rollback)
	}
}

func TestUnderPicoClawAnUnknownActionIsTakenAsContinue(t *testing.T) {
	odd := `hook.before_tool={"action":"frobnicate"}`
	_, out, errOut := runAs(t, "reference", []string{"before_tool"}, "-result", odd)
	expect(t, "reference", out, errOut, `-> failed (fail open): hook.before_tool result: action "frobnicate" is not allowed`)
	_, out, errOut = runAs(t, "picoclaw", []string{"before_tool"}, "-result", odd)
	expect(t, "picoclaw", out, errOut, "hook      h hook.before_tool echo_text -> continue", `host      h's unknown action "frobnicate" taken as continue`, "!failed")
}

// `hookwire conformance --host picoclaw` warns of each behaviour of
// PicoClaw's a hook would meet, for a hook built to meet each; a hook that
// meets none is warned of nothing, and the reference host warns of nothing.
func TestConformanceHostPicoClawWarnsOfEachFactTheHookWouldMeet(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"edits the system message with the others", []string{"-result", `hook.before_llm={"action":"modify","request":{"model":"m","messages":[{"role":"system","content":"Be terse."},{"role":"user","content":"[redacted]"}]}}`},
			[]string{"WARN  hook.before_llm: system messages changed: PicoClaw restores the whole message list it sent, so every other message edit of this reply is undone too"}},
		{"modifies after_llm", []string{"-tag", "seen"},
			[]string{"WARN  hook.after_llm: tool calls exec lost their names and arguments"}},
		{"answers respond without a result", []string{"-result", `hook.before_tool={"action":"respond"}`},
			[]string{`WARN  hook.before_tool: respond without a result taken as continue: PicoClaw logs "respond action but no HookResult"`}},
		{"relies on an abort reason", []string{"-result", `hook.after_llm={"action":"abort_turn","reason":"over budget"}`, "-result", `hook.after_tool={"action":"hard_abort","reason":"leak"}`},
			[]string{"WARN  hook.after_llm: reason dropped: PicoClaw does not pass on the reason of abort_turn", "WARN  hook.after_tool: reason dropped: PicoClaw does not pass on the reason of hard_abort", "WARN  hook.after_tool: hard_abort: PicoClaw also rolls the session's history back"}},
		{"answers an unknown action", []string{"-result", `hook.before_tool={"action":"frobnicate"}`},
			[]string{`WARN  hook.before_tool: unknown action "frobnicate" taken as continue`}},
		{"will receive a paired stage", []string{"-result", `hook.after_tool={"action":"abort_turn"}`},
			[]string{"WARN  hook.before_tool and hook.after_tool come in a pair: PicoClaw sends both to a hook whose config names either; this hook answers before_tool with continue and after_tool with abort_turn"}},
		{"meets none", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out, errOut := hookwire(t, "", append([]string{"conformance", "--host", "picoclaw", "--", fixtureBin}, c.args...)...)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("no warning %q:\n%s%s", w, out, errOut)
				}
			}
			if c.want == nil && strings.Contains(out, "WARN") {
				t.Errorf("a hook that meets none of them is warned:\n%s", out)
			}
			if _, out, _ := hookwire(t, "", append([]string{"conformance", "--", fixtureBin}, c.args...)...); strings.Contains(out, "WARN") {
				t.Errorf("the reference host warns:\n%s", out)
			}
		})
	}
}
