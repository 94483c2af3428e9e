package inspect

import "encoding/json"

// agentPrompt is the user's prompt in an agent's event the bridge
// published ({"event": {..., "prompt": "..."}, "reply": ...}): the
// agent's prompt event (Claude Code's UserPromptSubmit, Gemini CLI's
// BeforeAgent). A session of the bridge is named by its first.
func agentPrompt(data json.RawMessage) string {
	var ev struct {
		Event struct {
			Prompt any `json:"prompt"`
		} `json:"event"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return ""
	}
	p, _ := ev.Event.Prompt.(string)
	return p
}
