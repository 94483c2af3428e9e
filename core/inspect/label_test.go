package inspect

import (
	"encoding/json"
	"testing"

	"github.com/hookwire/hookwire/core/inspect/feed"
)

// A session is named by what it plays: a run's scenario, which the run
// publishes, else its first prompt, a bridge's as the agent's event
// carries it.
func TestASessionIsNamedByItsScenarioOrItsFirstPrompt(t *testing.T) {
	srv := start(t)
	pub := feed.OpenAt(srv.opts.Socket, feed.Info{Kind: "run", Host: "reference", Scenario: "weather/scenario.json"})
	pub.Event("user", map[string]any{"type": "user", "content": "What's the weather in Beijing today?"})
	pub.Close()
	sessions(t, srv, 1)
	pub = feed.OpenAt(srv.opts.Socket, feed.Info{Kind: "bridge", Host: "claude-code"})
	pub.Event("SessionStart", map[string]any{"event": map[string]any{"hook_event_name": "SessionStart"}})
	pub.Event("UserPromptSubmit", map[string]any{"event": map[string]any{"hook_event_name": "UserPromptSubmit", "prompt": "Clean up the build folder."}, "reply": nil})
	pub.Event("UserPromptSubmit", map[string]any{"event": map[string]any{"prompt": "And the cache."}, "reply": nil})
	pub.Close()
	list := sessions(t, srv, 2)
	_, body := get(t, srv, "/api/sessions")
	var page []map[string]any
	json.Unmarshal([]byte(body), &page)
	if len(page) != 2 || page[0]["scenario"] != "weather/scenario.json" || page[0]["prompt"] != "What's the weather in Beijing today?" {
		t.Errorf("the run's session: %v", page)
	}
	if list[1].Prompt != "Clean up the build folder." {
		t.Errorf("the bridge's session is named %q, want its first prompt", list[1].Prompt)
	}
}
