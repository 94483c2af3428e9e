package bridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hookwire/hookwire/core/bridge/session"
	"github.com/hookwire/hookwire/core/internal/jsonscan"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// MaxEventSize bounds an event read from the agent (session.MaxEventSize).
const MaxEventSize = session.MaxEventSize

// Event is one event of an agent, as its JSON came on stdin.
type Event struct {
	// Name is its hook_event_name.
	Name string
	// Session is its session_id.
	Session string
	// Fields are all its members.
	Fields map[string]any
}

// ParseEvent reads an event: a JSON object with a hook_event_name and a
// session_id, both strings.
func ParseEvent(data []byte) (Event, error) {
	fields, err := decodeObject(data)
	if err != nil {
		return Event{}, err
	}
	return eventOf(fields)
}

// decodeObject reads what an agent wrote: one JSON object.
func decodeObject(data []byte) (map[string]any, error) {
	if !json.Valid(data) {
		return nil, errors.New("the event is not a JSON object: it is not JSON, or more than one value")
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("the event is not a JSON object: %w", err)
	}
	if fields == nil {
		return nil, errors.New("the event is not a JSON object: null")
	}
	return fields, nil
}

// eventOf is an event whose members name it: a hook_event_name and a
// session_id, both strings.
func eventOf(fields map[string]any) (Event, error) {
	name, ok := fields["hook_event_name"].(string)
	if !ok || name == "" {
		return Event{}, errors.New("the event has no hook_event_name string")
	}
	session, ok := fields["session_id"].(string)
	if !ok {
		return Event{}, errors.New("the event has no session_id string")
	}
	return Event{Name: name, Session: session, Fields: fields}, nil
}

func (ev Event) str(key string) string {
	s, _ := ev.Fields[key].(string)
	return s
}

func (ev Event) object(key string) map[string]any {
	m, _ := ev.Fields[key].(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// meta is the protocol's meta of a call made for the event.
func (ev Event) meta(agent string) *protocol.Meta {
	return &protocol.Meta{AgentID: &agent, SessionKey: &ev.Session}
}

// context is the turn context of a call made for the event: the agent,
// and the session, working folder, permission mode and transcript the
// event gives.
func (ev Event) context(agent string) *protocol.TurnContext {
	return &protocol.TurnContext{
		Agent:          &agent,
		SessionID:      &ev.Session,
		Cwd:            nonEmpty(ev.str("cwd")),
		PermissionMode: nonEmpty(ev.str("permission_mode")),
		TranscriptPath: nonEmpty(ev.str("transcript_path")),
	}
}

// Reply is what the agent reads back: stdout, an exit code, and stderr
// (session.Reply).
type Reply = session.Reply

// outcome is what a hook decided about an event.
type outcome struct {
	step Step
	// failure, when set, says why the hook could not be asked.
	failure string
	// failOpen gives a guard event no decision (--failure-policy open): the
	// agent's own permission rules decide, as without a hook.
	failOpen bool
	// skipped says which calls failed under an open policy: the event went
	// on without them.
	skipped []string
	// stderr are the last lines of the hook's stderr, and log the session's
	// log, for the message about a failure.
	stderr []string
	log    string
	// firstTime reports whether the session has not yet told the user of
	// the thing key names: what the agent cannot take is said once per
	// session. Nil: always.
	firstTime func(key string) bool
	// ended is the decision that ended a chain: anything but continue.
	ended *decision
	// approval is the approvers' decision; nil when none was asked.
	approval *decision
	// args are the tool call's new arguments, when a hook changed them.
	args map[string]any
	// result is the tool result's new text, when after_tool changed it,
	// and hook the hook that changed it.
	result *string
	hook   string
	// llm is the model request or response a hook changed, in the agent's
	// own format.
	llm map[string]any
	// context is the text hooks asked to add to what the model reads next,
	// and messages what they asked to show the user.
	context, messages []string
}

// heard keeps what the hooks said besides their decision.
func (o *outcome) heard(d runtime.Decision) {
	o.context = append(o.context, d.Context...)
	o.messages = append(o.messages, d.Messages...)
}

// once says whether the user is to be told of key now: the first time
// in the session.
func (o outcome) once(key string) bool { return o.firstTime == nil || o.firstTime(key) }

// decision is the part of a runtime decision the agents can express.
type decision struct {
	action    protocol.Action
	hook      string
	reason    string
	forLLM    string // a respond's result
	byDefault bool   // every approver abstained
}

func (d decision) denied() bool { return d.action != protocol.ActionContinue }

// because is a decision's reason, or what it was when the hook gave none.
func (d decision) because() string {
	if d.reason != "" {
		return d.reason
	}
	return fmt.Sprintf("hook %s: %s", d.hook, strings.ReplaceAll(string(d.action), "_", " "))
}

func encode(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// eventName is the name of an event (its member key: hook_event_name),
// read from the start of its JSON without decoding the rest: it names the
// event even when the whole cannot be read (too large, cut short, not an
// object of strings).
func eventName(data []byte, key string) string {
	var name string
	json.Unmarshal(jsonscan.Member(data, key), &name)
	return name
}
