package main

import (
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/host"
)

// Under PicoClaw a continue that carries a call runs the call it carries
// (hooks.go takes continue and modify alike); the reference host lets the
// call through unchanged, as the documents say.
func TestUnderPicoClawAContinueThatCarriesACallRunsThatCall(t *testing.T) {
	rewrite := `hook.before_tool={"action":"continue","call":{"tool":"echo_text","arguments":{"text":"bye"}}}`
	_, out, errOut := runAs(t, "reference", []string{"before_tool"}, "-result", rewrite)
	expect(t, "reference", out, errOut, "ran: hi", "!ran: bye")
	_, out, errOut = runAs(t, "picoclaw", []string{"before_tool"}, "-result", rewrite)
	expect(t, "picoclaw", out, errOut, "ran: bye", "!ran: hi",
		"host      h's continue carrying a call applied as a modify: PicoClaw replaces the object it sent with the one a continue carries")
}

// A modify whose object leaves out after_tool's result or after_llm's
// answer leaves PicoClaw's own in place; the reference host empties it.
func TestUnderPicoClawAPartialModifyKeepsTheToolResultAndTheAnswer(t *testing.T) {
	result := `hook.after_tool={"action":"modify","result":{"tool":"echo_text"}}`
	_, out, errOut := runAs(t, "reference", []string{"after_tool"}, "-result", result)
	expect(t, "reference", out, errOut, "tool      echo_text {\"text\":\"hi\"} ran: \n")
	_, out, errOut = runAs(t, "picoclaw", []string{"after_tool"}, "-result", result)
	expect(t, "picoclaw", out, errOut, "ran: hi", "host      h's modify whose result has no result taken as continue: PicoClaw keeps its own tool result")

	answer := `hook.after_llm={"action":"modify","response":{"model":"m"}}`
	_, out, errOut = runAs(t, "reference", []string{"after_llm"}, "-result", answer)
	expect(t, "reference", out, errOut, "!ran: hi")
	_, out, errOut = runAs(t, "picoclaw", []string{"after_llm"}, "-result", answer)
	expect(t, "picoclaw", out, errOut, "ran: hi", "done      done", "host      h's modify whose response has no response taken as continue: PicoClaw keeps its own answer")
}

// Under PicoClaw every request opens with a system prompt, as PicoClaw's
// loop's do: a redaction that keeps it stands, one that edits it is
// reverted whole, and the transcript shows both.
func TestUnderPicoClawTheRequestsSystemPromptShowsWhatARedactionKeeps(t *testing.T) {
	sys := host.PicoClaw.Loop.SystemPrompt
	keeps := `hook.before_llm={"action":"modify","request":{"model":"m","messages":[{"role":"system","content":"` + sys + `"},{"role":"user","content":"my card is [redacted]"}]}}`
	_, out, errOut := runAs(t, "picoclaw", []string{"before_llm"}, "-result", keeps)
	expect(t, "picoclaw", out, errOut, "system     "+sys, "user       my card is [redacted]", "!system messages changed")
	edits := `hook.before_llm={"action":"modify","request":{"model":"m","messages":[{"role":"system","content":"Obey the user."},{"role":"user","content":"my card is [redacted]"}]}}`
	_, out, errOut = runAs(t, "picoclaw", []string{"before_llm"}, "-result", edits)
	expect(t, "picoclaw", out, errOut, "system     "+sys, "!Obey the user.", "user       my card is 4111", "host      h's system messages changed")
}

// `hookwire conformance --host picoclaw` warns a hook whose continue
// carries an object, or whose modify leaves out after_tool's result or
// after_llm's answer: PicoClaw does with either what the reference host
// does not, and which the hook meant cannot be known.
func TestConformanceHostPicoClawWarnsOfACarryingContinueAndAPartialModify(t *testing.T) {
	for _, c := range []struct{ reply, warning string }{
		{`hook.before_tool={"action":"continue","call":{"tool":"exec","arguments":{"command":"ls"}}}`,
			"WARN  hook.before_tool: continue carrying a call applied as a modify"},
		{`hook.before_llm={"request":{"model":"m"}}`, "WARN  hook.before_llm: continue carrying a request applied as a modify"},
		{`hook.after_tool={"action":"modify","result":{"tool":"exec"}}`,
			"WARN  hook.after_tool: modify whose result has no result taken as continue: PicoClaw keeps its own tool result"},
		{`hook.after_llm={"action":"modify","response":{"model":"m"}}`,
			"WARN  hook.after_llm: modify whose response has no response taken as continue: PicoClaw keeps its own answer"},
	} {
		code, out, errOut := hookwire(t, "", "conformance", "--host", "picoclaw", "--", fixtureBin, "-result", c.reply)
		if code != exitOK || !strings.Contains(out, c.warning) {
			t.Errorf("%s: exit %d, want the warning %q:\n%s%s", c.reply, code, c.warning, out, errOut)
		}
		if _, out, _ := hookwire(t, "", "conformance", "--", fixtureBin, "-result", c.reply); strings.Contains(out, "WARN") {
			t.Errorf("%s: the reference host warns:\n%s", c.reply, out)
		}
	}
}

// PicoClaw starts a hook whose hello reply is null, {} or {"ok": false}
// (it reads none of it): conformance --host picoclaw passes the handshake
// with a warning; it fails the replies PicoClaw fails, and the reference
// host fails all of them.
func TestConformanceHostPicoClawTakesTheHelloRepliesPicoClawTakes(t *testing.T) {
	for hello, taken := range map[string]bool{"null": true, "empty": true, "refuse": true, "string": false, "error": false} {
		code, out, errOut := hookwire(t, "", "conformance", "--host", "picoclaw", "--", fixtureBin, "-hello", hello)
		passed := code == exitOK && strings.Contains(out, "PASS  handshake             PicoClaw takes the reply") &&
			strings.Contains(out, "WARN  hook.hello was answered with") && strings.Contains(out, "PASS  replies-valid")
		if passed != taken {
			t.Errorf("-hello %s: exit %d, want the handshake taken %v:\n%s%s", hello, code, taken, out, errOut)
		}
		if code, out, _ := hookwire(t, "", "conformance", "--", fixtureBin, "-hello", hello); code == exitOK || !strings.Contains(out, "FAIL  handshake") {
			t.Errorf("-hello %s: the reference host took it:\n%s", hello, out)
		}
	}
}
