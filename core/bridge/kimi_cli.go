package bridge

import "github.com/hookwire/hookwire/core/agents"

// The form of Kimi CLI's replies. Kimi CLI names its events by
// hook_event_name, as Claude Code does, and blocks a tool call or a prompt
// on exit code 2 with the reason on stderr, as Windsurf does: the same
// decisions, written as windsurfDecide writes them.
var _ = addForm(agents.KimiReplies, replyForm{decide: windsurfDecide, stderrOnly: true, llm: claudePrompt{}})
