package cli

import "testing"

func TestDidYouMeanNamesTheNearestKnownWordOrNone(t *testing.T) {
	known := []string{"claude-code", "hook.hello", "hook.before_llm", "hook.before_tool", "hook.after_tool", "hook.approve_tool"}
	for word, want := range map[string]string{
		"hook.befor_tool":  ` (did you mean "hook.before_tool"?)`,
		"hook.aprove_tool": ` (did you mean "hook.approve_tool"?)`,
		"before_tool":      ` (did you mean "hook.before_tool"?)`,
		"hook.helo":        ` (did you mean "hook.hello"?)`,
		"claude":           ` (did you mean "claude-code"?)`,
		"shutdown":         "",
		"x":                "",
	} {
		if got := DidYouMean(word, known); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", word, got, want)
		}
	}
}
