package bridge

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hookwire/hookwire/core/bridge/session"
)

// Every event of each agent's table has a sample from its document in
// testdata, and every sample is an event of the table that parses.
func TestEveryEventOfEachAgentHasASampleThatParses(t *testing.T) {
	for name, agent := range Agents {
		files, err := filepath.Glob(filepath.Join("testdata", name, "*.json"))
		require.NoError(t, err)
		var samples []string
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			ev, err := agent.Parse(data)
			require.NoError(t, err, f)
			assert.Equal(t, strings.TrimSuffix(filepath.Base(f), ".json"), ev.Name, f)
			assert.NotEmpty(t, ev.Session, f)
			samples = append(samples, ev.Name)
		}
		assert.ElementsMatch(t, slices.Collect(maps.Keys(agent.Events)), samples, name)
	}
}

func TestAnEventWithoutNameOrSessionIsRefusedWithAClearMessage(t *testing.T) {
	for in, want := range map[string]string{
		`not json`:                   "the event is not a JSON object",
		`null`:                       "the event is not a JSON object: null",
		`[]`:                         "the event is not a JSON object",
		`{"session_id":"s"}`:         "the event has no hook_event_name string",
		`{"hook_event_name":"Stop"}`: "the event has no session_id string",
		`{"hook_event_name":"Stop","session_id":"s"} {}`: "more than one value",
		`{"hook_event_name":"Stop","session_id":"s"}}`:   "more than one value",
	} {
		_, err := ParseEvent([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

// Whatever an agent or a peer on the socket sends, each agent's decoder
// never panics, accepts only JSON, and an accepted event has its name and
// session, the same on both sides of the socket.
func FuzzParseEvent(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	forms, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*.json"))
	for _, file := range append(files, forms...) {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(`{"hook_event_name":"Stop","session_id":"s"]}`))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, agent := range Agents {
			ev, err := agent.Parse(data)
			if err != nil {
				continue
			}
			assert.True(t, json.Valid(data))
			assert.NotEmpty(t, ev.Name)
			again := acrossTheSocket(t, agent, data)
			assert.Equal(t, ev.Name, again.Name)
			assert.Equal(t, ev.Session, again.Session)
		}
	})
}

// acrossTheSocket is the event as a session's server reads it, sent as an
// invocation sends it.
func acrossTheSocket(t *testing.T, agent *Agent, data []byte) Event {
	client, server := net.Pipe()
	defer client.Close()
	got := make(chan Event, 1)
	go func() {
		defer server.Close()
		err := session.Answer(server, func(event json.RawMessage, err error) Reply {
			var ev Event
			if err == nil {
				ev, err = agent.Parse(event)
			}
			assert.NoError(t, err)
			got <- ev
			return Reply{}
		})
		assert.NoError(t, err)
	}()
	_, err := session.Exchange(context.Background(), client, data)
	require.NoError(t, err)
	return <-got
}

// eventName reads the name of any event ParseEvent accepts, and never
// panics on what an agent may write, cut short or not.
func FuzzEventName(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","tool_input":{"a":[1,{"b":"}"}]},"hook_event_name":"PreToolUse"}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_input":{"command":"rm -rf / xxxx`))
	f.Add([]byte(`[{"hook_event_name":"PreToolUse"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		name := eventName(data, "hook_event_name")
		if ev, err := ParseEvent(data); err == nil && name != ev.Name {
			t.Fatalf("eventName %q, ParseEvent %q", name, ev.Name)
		}
		for i := range min(len(data), 64) {
			eventName(data[:i], "hook_event_name")
		}
	})
}

// Whatever output an agent's event carries, the hook reads it as text, and
// a new text goes back where it was read from: reading the new output
// gives the new text, or the bridge says it has no place for it.
func FuzzToolOutputGoesBackWhereItWasRead(f *testing.F) {
	f.Add([]byte(`{"stdout":"a","stderr":"b","interrupted":false}`), "masked")
	f.Add([]byte(`{"type":"text","file":{"filePath":"/a","content":"x"}}`), "y")
	f.Add([]byte(`[{"type":"text","text":"a"},{"type":"image"}]`), "z")
	f.Add([]byte(`"plain"`), `{"json":true}`)
	f.Add([]byte(`{"filePath":"/a","success":true}`), "not json")
	f.Fuzz(func(t *testing.T, response []byte, newText string) {
		var v any
		if json.Unmarshal(response, &v) != nil || !utf8.ValidString(newText) {
			return // a hook's text comes in JSON, valid UTF-8
		}
		_ = claudeToolText(v)
		out, ok := claudeNewOutput(Event{Fields: map[string]any{"tool_response": v}}, newText)
		if !ok {
			return
		}
		// Back as JSON and read again, as Claude Code would hand it on.
		var again any
		require.NoError(t, json.Unmarshal([]byte(encode(out)), &again))
		if claudeToolText(v) != text(v) || reflect.TypeOf(v) == reflect.TypeOf("") {
			assert.Equal(t, newText, claudeToolText(again))
		}
	})
}

// The agents the tests use by name.
var (
	claudeCode = Agents["claude-code"]
	geminiCLI  = Agents["gemini-cli"]
	qwenCode   = Agents["qwen-code"]
)

// Every agent's form of replies has its reader and writer here.
func TestEveryAgentsFormOfRepliesIsKnown(t *testing.T) {
	for name, a := range Agents {
		if a.form().decide == nil {
			t.Errorf("%s: no writer of its form of replies %q", name, a.Replies)
		}
	}
}
