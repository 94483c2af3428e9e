package bridge

import (
	"strings"

	"github.com/hookwire/hookwire/core/agents"
)

// The form of Kimi CLI's replies. Kimi CLI names its events by
// hook_event_name, as Claude Code does, and blocks a tool call or a prompt
// on exit code 2 with the reason on stderr, as Windsurf does.
var _ = addForm(agents.KimiReplies, replyForm{decide: kimiDecide, stderrOnly: true, llm: claudePrompt{}})

// kimiDecide writes the decisions as windsurfDecide does, but for a guard
// the hook could not answer: Kimi CLI shows its user nothing of a hook but
// the reason, which its model reads as the tool's error (its print mode's
// JSON lines show it), so the reason says that hookwire blocked the call,
// what failed, the last lines of the hook's stderr and the session's log.
func kimiDecide(a *agents.Agent, ev Event, o outcome) Reply {
	if o.failure == "" || !o.step.Guard || o.failOpen {
		return windsurfDecide(a, ev, o)
	}
	return Reply{Exit: 2, Stderr: "hookwire blocked the call: " + strings.TrimPrefix(o.problem(), "hookwire: ")}
}
