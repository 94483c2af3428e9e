package main

import (
	"strings"
	"testing"
)

// Under --host claude-code the weather plugin's before_llm is called once
// per prompt, but the tool it adds is dropped: get_weather is never
// offered and the scripted turn that calls it fails. Conformance warns of
// it before deployment.
func TestUnderClaudeCodeTheWeatherPluginsToolIsNeverOffered(t *testing.T) {
	code, out, errOut := hookwire(t, "", "run", "--host", "claude-code", "--hooks", "../../../examples/weather/hooks.json", "../../../examples/weather/scenario.json")
	expect(t, "claude-code", out, errOut,
		"dropped: Claude Code takes no tools from a hook",
		"llm #1    offered tools: echo_text, read_file\n")
	if code != exitFail {
		t.Errorf("exit %d: the turn that calls get_weather should fail, the tool never offered", code)
	}
	code, out, errOut = hookwire(t, "", "conformance", "--host", "claude-code", "--", "python3", "../../../examples/weather/script/weather_plugin.py")
	expect(t, "claude-code", out, errOut,
		"  WARN  hook.before_llm: tools change (added get_weather) dropped: Claude Code takes no tools from a hook")
	if code != exitOK {
		t.Errorf("conformance: exit %d, want warnings, not failures", code)
	}
}

// Under --host gemini-cli before_llm is called, but the tool it adds is
// dropped: Gemini CLI takes no tools from a hook.
func TestUnderGeminiCLITheToolABeforeLLMHookAddsIsDropped(t *testing.T) {
	_, out, errOut := hookwire(t, "", "run", "--host", "gemini-cli", "--hooks", "../../../examples/weather/hooks.json", "../../../examples/weather/scenario.json")
	expect(t, "gemini-cli", out, errOut,
		"hook      weather_plugin hook.before_llm -> modify",
		"dropped: Gemini CLI takes no tools from a BeforeModel hook",
		"llm #1    offered tools: echo_text, read_file\n")
	_, out, errOut = hookwire(t, "", "conformance", "--host", "gemini-cli", "--", "python3", "../../../examples/weather/script/weather_plugin.py")
	expect(t, "gemini-cli", out, errOut, "  WARN  hook.before_llm: tools change (added get_weather) dropped: Gemini CLI takes no tools")
}

// respond has no counterpart in either agent: the call is denied, with the
// result as the reason the model reads.
func TestUnderTheAgentsRespondIsADenyWhoseReasonIsTheResult(t *testing.T) {
	for _, host := range []string{"claude-code", "gemini-cli"} {
		_, out, errOut := runAs(t, host, []string{"before_tool"}, "-echo")
		expect(t, host, out, errOut, "lets no hook answer a tool call: the call is denied", "denied by hook h")
		if strings.Contains(out, "answered by hook h") {
			t.Errorf("--host %s: the respond was applied:\n%s", host, out)
		}
	}
}

// Claude Code asks after_llm once a turn, at Stop, with its last answer:
// never for an answer that calls tools, and a modify of it is not applied.
func TestUnderClaudeCodeAfterLLMIsCalledOnlyWithTheLastAnswer(t *testing.T) {
	_, out, errOut := runAs(t, "claude-code", []string{"after_llm", "before_tool"})
	expect(t, "claude-code", out, errOut,
		"hooks     h (process, priority 0): after_llm, before_tool\n",
		"tool      echo_text {\"text\":\"hi\"} ran: hi\n",
		"hook      h hook.after_llm -> continue",
		"llm #2    says: done\n")
	if strings.Count(out, "hook.after_llm") != 1 {
		t.Errorf("after_llm should be asked once, with the last answer:\n%s", out)
	}
	answer := "hook.after_llm=" + `{"action":"modify","response":{"response":{"content":"changed"}}}`
	_, out, errOut = runAs(t, "claude-code", []string{"after_llm"}, "-result", answer)
	expect(t, "claude-code", out, errOut, "Claude Code shows its last answer as it was", "llm #2    says: done\n", "!changed")
}
