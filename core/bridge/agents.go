// Package bridge runs hookwire hooks as the command hooks of agents that
// start a command per event (the agents of core/agents): the event's JSON
// on stdin, a decision as JSON on stdout and an exit code.
//
// The first event of a session starts the hook once, through the reference
// runtime, behind a small server of that session; later events reach it
// over a Unix socket in a folder only the user can enter. The hook keeps its
// state between events and answers in a round trip instead of a process
// start. The server stops at the session's end, after an idle time, or when
// its hook is down for good.
package bridge

import (
	"cmp"
	"strings"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// Step is what the bridge does with an agent's event (agents.Step).
type Step = agents.Step

// Agent is an agent whose command hooks the bridge speaks: its facts
// (core/agents), read and answered in the form of its replies.
type Agent struct {
	*agents.Agent
}

// Agents are the agents the bridge speaks, by name: every agent of
// agents.All.
var Agents = func() map[string]*Agent {
	out := map[string]*Agent{}
	for _, a := range agents.All {
		out[a.Name] = &Agent{a}
	}
	return out
}()

// agentNames are the agents' names, as the bridge's help lists them:
// "claude-code, gemini-cli or another".
func agentNames() string {
	names := agents.Names()
	last := len(names) - 1
	return strings.Join(names[:last], ", ") + " or " + names[last]
}

// replyForm is how the bridge reads the events of the agents that write a
// form of replies (agents.Replies), and writes their decisions. Each is in
// the file of the form (claude.go, gemini.go, ...), which adds it to forms.
type replyForm struct {
	// parse reads an event as the agent writes it; nil: ParseEvent.
	parse func(data []byte) (Event, error)
	// decide turns the outcome of an event into what the agent reads.
	decide func(a *agents.Agent, ev Event, o outcome) Reply
	// toolResult reads a tool's outcome from an event after a tool; nil:
	// claudeToolResult.
	toolResult func(ev Event) protocol.ToolResult
	// message is the member of a JSON reply whose text the agent shows
	// its user; empty: systemMessage.
	message string
	// context adds text for the model to a reply, where the event takes
	// context (Step.Context); nil: withContext.
	context func(r Reply, ev Event, text string) Reply
	// stderrOnly is true for an agent that reads no JSON from a hook, only
	// its exit code: a message for the user goes on stderr.
	stderrOnly bool
	// event is the member of the agent's events that names them; empty:
	// hook_event_name.
	event string
	// llm translates the agent's model request and response, where it has
	// model events or a prompt event.
	llm llmFormat
}

// forms are the reply forms, by name.
var forms = map[agents.Replies]replyForm{}

// addForm adds the form of replies r to forms, and returns f.
func addForm(r agents.Replies, f replyForm) replyForm {
	forms[r] = f
	return f
}

// form is the form of the agent's replies.
func (a *Agent) form() replyForm { return forms[a.Replies] }

// Parse reads an event as the agent writes it on a hook's stdin.
func (a *Agent) Parse(data []byte) (Event, error) {
	if parse := a.form().parse; parse != nil {
		return parse(data)
	}
	return ParseEvent(data)
}

// decide turns the outcome of an event into what the agent reads.
func (a *Agent) decide(ev Event, o outcome) Reply { return a.form().decide(a.Agent, ev, o) }

// toolResult reads a tool's outcome from an event after a tool.
func (a *Agent) toolResult(ev Event) protocol.ToolResult {
	if read := a.form().toolResult; read != nil {
		return read(ev)
	}
	return claudeToolResult(ev)
}

// messageKey is the member of a JSON reply whose text the agent shows its
// user; empty for an agent that reads a message on stderr.
func (a *Agent) messageKey() string {
	if a.form().stderrOnly {
		return ""
	}
	return cmp.Or(a.form().message, "systemMessage")
}

// withContext adds text for the model to a reply, in the agent's form.
func (a *Agent) withContext(r Reply, ev Event, text string) Reply {
	if add := a.form().context; add != nil {
		return add(r, ev, text)
	}
	return withContext(r, ev, text)
}

// eventKey is the member of the agent's events that names them.
func (a *Agent) eventKey() string { return cmp.Or(a.form().event, "hook_event_name") }
