package lifecycle

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// A runtime event's session is the first of its scope's session_key and its
// payload's SessionKey that is not empty, whatever else the event carries:
// the layer runs the session's callbacks with that key, or none when there
// is none, and never fails.
func FuzzARuntimeEventRunsInTheSessionItNames(f *testing.F) {
	kinds := []string{"agent.turn.end", "agent.turn.start", "agent.session.end"}
	f.Add(uint8(0), "s1", []byte(`{}`))
	f.Add(uint8(1), "", []byte(`{"SessionKey":"s2"}`))
	f.Add(uint8(2), "", []byte(`{"SessionKey":"s3"}`))
	f.Add(uint8(0), "", []byte(`{"sessionkey":"s4","SessionKey":5}`))
	f.Add(uint8(0), "", []byte(`["SessionKey"]`))
	f.Fuzz(func(t *testing.T, which uint8, scope string, payload []byte) {
		kind := kinds[int(which)%len(kinds)]
		params, err := json.Marshal(map[string]any{"kind": kind, "source": map[string]any{}, "scope": map[string]any{"session_key": scope}, "payload": json.RawMessage(payload)})
		if err != nil || !utf8.Valid(params) {
			t.Skip("the payload is not JSON: the host's line would not decode")
		}
		var r recorder
		h, _ := setup(Options{Hooks: Hooks{SessionStart: {r.cb("start")}, TaskCompleted: {r.cb("done")}, SessionEnd: {r.cb("end")}}})
		if _, err := h.Call(ctx, hookwire.MethodRuntimeEvent, params); err != nil {
			return // refused by the decoder, as a member of the wrong type is
		}
		var sent struct { // as the host's line carries them
			Scope struct {
				SessionKey string `json:"session_key"`
			}
			Payload json.RawMessage
		}
		if err := json.Unmarshal(params, &sent); err != nil {
			t.Fatal(err)
		}
		key := sent.Scope.SessionKey
		if key == "" {
			var p map[string]any
			_ = json.Unmarshal(sent.Payload, &p)
			key, _ = p["SessionKey"].(string)
		}
		var want []string
		switch {
		case key == "" || kind == "agent.session.end":
		case kind == "agent.turn.end":
			want = []string{"start " + key, "done " + key + " " + string(sent.Payload)}
		default:
			want = []string{"start " + key}
		}
		if got := r.lines(); !slices.Equal(got, want) {
			t.Fatalf("event %s: callbacks %q, want %q", params, got, want)
		}
	})
}
