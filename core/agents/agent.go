// Package agents holds what hookwire knows of each agent whose command
// hooks it speaks through the bridge: one value per agent, in a file of its
// own (claude_code.go, gemini_cli.go, ...), and All, the one list of them.
// An agent's value says how its events map to the protocol, the form of
// its replies and where it differs from that form (named fields, never a
// test of its name), what it cannot express, and its configuration files
// (Install). The bridge (core/bridge), the host profiles (core/host),
// install and doctor (core/install), the command line's help and the table
// docs/agent-events.md derive from these values.
//
// The package is data: it imports only the protocol's names, so that every
// layer that needs an agent's facts may import it.
package agents

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// Agent is an agent whose command hooks the bridge speaks.
type Agent struct {
	// Name is how the bridge, install and --host name it: claude-code, ...
	Name string
	// Title is how people write its name: Claude Code, Gemini CLI.
	Title string
	// Version is the agent's version its facts were checked against, as
	// notes on its behaviour name it; empty when they name none.
	Version string
	// Document is the version of the agent's hooks reference followed.
	Document string
	// Events map each event name (hook_event_name) to what the bridge does.
	Events map[string]Step
	// Cannot lists, once per start, what hooks can decide that the agent
	// cannot express, and what the bridge does instead.
	Cannot []string
	// Deadline is the bridge's default deadline for an event: below the
	// agent's own default hook timeout, so that the agent reads our answer,
	// never its timeout. Zero: DefaultDeadline.
	Deadline time.Duration
	// Idle is how long a session's server waits for the next event unless
	// --idle says: short for an agent that, in some of its runs, sends no
	// event at the end of a session, whose server and hook would otherwise
	// outlive each such run by the whole of DefaultIdle. Zero: DefaultIdle.
	Idle time.Duration
	// IdleWhy says, in docs/agent-events.md, why Idle is set.
	IdleWhy string
	// AsksAtOnce is true for an agent that asks about the calls of one
	// answer at once: their events reach the bridge together.
	AsksAtOnce bool
	// TurnID is the member of the agent's events that names their turn,
	// where it writes one: a call of another turn ends an abort.
	TurnID string
	// Replies is the form the agent reads a hook's replies in, and writes
	// its events in: the bridge has a reader and a writer for each.
	Replies Replies
	// Quirks are where the agent differs from its form's rules.
	Quirks Quirks
	// Install is what install and doctor know of its configuration files.
	Install Install
}

// Replies names a form of hook replies, as the bridge writes them. Each
// is declared in the file of the agent whose form it is.
type Replies string

// Quirks are what an agent does differently from the form of its replies
// and from what the protocol's hosts do; the zero value of each is the
// form's way.
type Quirks struct {
	// NoNewArguments: the event before a tool (PreToolUse) takes no new
	// arguments. A call a hook rewrote is denied, with the new arguments
	// named: running the call the hook did not want is not safe.
	NoNewArguments bool
	// NoNewArgumentsAtApproval: the agent's permission request takes no new
	// arguments; a rewrite there is denied.
	NoNewArgumentsAtApproval bool
	// Replies before a tool that the agent takes for a failed hook, and
	// then runs the tool: an ask (a rewritten call no approver allowed is
	// allowed instead), an allow without the arguments (the call's own are
	// sent back), a stop of the turn (abort_turn and hard_abort deny the
	// call, and the turn goes on).
	FailsOnAsk, FailsOnAllowWithoutArguments, FailsOnStopAtGuard bool
	// NewOutput is how the agent takes a hook's new tool output, and what
	// its model reads of it.
	NewOutput OutputForm
	// ModelEvents is true for an agent with events around each model
	// request: before_llm and after_llm see the whole request and answer.
	// Without them, before_llm is called once per prompt, where only
	// appended messages reach the model as context, and after_llm once per
	// turn, with its last answer, which a modify cannot change.
	ModelEvents bool
	// PromptBlockOnly: at the prompt, the agent takes only a block
	// (abort_turn), no context and no new prompt.
	PromptBlockOnly bool
	// ContextMember is the member of a reply in which the agent reads
	// context for the model (Step.Context), as the docs name it; empty:
	// additionalContext.
	ContextMember string
	// EndsRun: the agent stops a tool call only by ending its whole run
	// (Cline's cancel): every deny ends the run, and what is said of it
	// says so, never that one call was denied.
	EndsRun bool
}

// OutputForm is how an agent takes a hook's new tool output.
type OutputForm int

const (
	// OutputReplaced: the form's own member for a new output; the model
	// reads it in place of the output.
	OutputReplaced OutputForm = iota
	// OutputStop: a stop with the new text as its reason; the model reads
	// the tool's result as an error, with that text.
	OutputStop
	// OutputBlock: a block with the new text as its reason; the model
	// reads the text in place of the output.
	OutputBlock
	// OutputContextAfter: the new text as context of the event after the
	// tool (hookSpecificOutput.additionalContext); the model reads it after
	// the output, which it still reads.
	OutputContextAfter
	// OutputBlockedResult: the new output is a blocked result; the model
	// reads "Tool result blocked: " and the new text, as an error.
	OutputBlockedResult
)

// Blocks says whether the new output is sent as a block with the text as
// its reason.
func (f OutputForm) Blocks() bool { return f == OutputBlock }

// Step is what the bridge does with an agent's event: the protocol calls
// it makes, in order, or the runtime event it raises for observers.
type Step struct {
	// Calls are the hook stages asked, in order; a stage the hook has no
	// handler for is left out.
	Calls []Stage
	// Kind is the runtime event raised for observers, before the calls.
	Kind string
	// Guard is true for an event that decides whether a tool may run: when
	// the hook cannot be asked (it did not start, it crashed, it timed out),
	// the bridge blocks it, as a failed approval does.
	Guard bool
	// EndsSession is true for the event that ends the session: the server
	// stops once it has answered.
	EndsSession bool
	// Context is true where the agent reads context for the model from a
	// hook (hookSpecificOutput.additionalContext): the context of the
	// hooks' results goes there.
	Context bool
	// KeepGoing, where set, is the decision by which the agent goes on at
	// the end of a turn ("block"): context on the hooks' answer there keeps
	// the turn going, with the context as the reason the model reads.
	KeepGoing string
	// ContextLater, where set, names the event at the end of the same turn
	// that takes the context given here: it waits for that event, where it
	// keeps the turn going.
	ContextLater string
	// NotMapped says why the event is not mapped: the bridge answers it
	// with nothing, and the agent goes on as without a hook.
	NotMapped string
	// NewTurn is true for the user's prompt and for the end of the
	// agent's turn: a turn a hook aborted is over, and the calls after it
	// are asked of the hook again.
	NewTurn bool
}

// Stage is a protocol call the bridge makes, named as in a hooks
// configuration's intercept list (protocol.Stage).
type Stage = protocol.Stage

// The stages, in the order of a turn.
const (
	BeforeLLM  = protocol.StageBeforeLLM
	AfterLLM   = protocol.StageAfterLLM
	BeforeTool = protocol.StageBeforeTool
	Approval   = protocol.StageApproveTool
	AfterTool  = protocol.StageAfterTool
)

// Stages are every stage, in the order of a turn.
var Stages = protocol.Stages

// Runtime event kinds the bridge raises that the protocol's agent loop has
// no event for.
const (
	KindNotification = "agent.notification"
	KindCompact      = "agent.context.compact"
)

// The bridge's defaults, for an agent that sets none.
const (
	// DefaultDeadline is the longest an invocation takes: below the 60
	// seconds that Claude Code and Gemini CLI give a command hook by
	// default.
	DefaultDeadline = 50 * time.Second
	// DefaultIdle is how long a session's server waits for the next event
	// before it stops, with its hook, for an agent that sends an event at
	// the end of every session.
	DefaultIdle = 30 * time.Minute
)

// EventDeadline is the bridge's deadline for an event of the agent, unless
// the command line sets one.
func (a *Agent) EventDeadline() time.Duration { return cmp.Or(a.Deadline, DefaultDeadline) }

// IdleTime is how long a session's server of the agent waits for an
// event, unless the command line sets it.
func (a *Agent) IdleTime() time.Duration { return cmp.Or(a.Idle, DefaultIdle) }

// TitleVersion is the agent's title with the version its facts were
// checked against: "Gemini CLI 0.61.0".
func (a *Agent) TitleVersion() string { return strings.TrimSpace(a.Title + " " + a.Version) }

// PromptEvent is the agent's event for the user's prompt, the start of a
// turn that ends an abort (Step.NewTurn).
func (a *Agent) PromptEvent() string {
	for _, name := range slices.Sorted(maps.Keys(a.Events)) {
		if step := a.Events[name]; step.NewTurn && step.Kind == protocol.KindTurnStart {
			return name
		}
	}
	return ""
}

// TurnOverEvent is the event that tells the bridge a turn is over, which
// ends an abort: the user's prompt, or, for an agent that has no event at
// the prompt (Mistral Vibe), the end of its turn.
func (a *Agent) TurnOverEvent() string {
	if prompt := a.PromptEvent(); prompt != "" {
		return prompt
	}
	for _, name := range slices.Sorted(maps.Keys(a.Events)) {
		if step := a.Events[name]; step.NewTurn && step.Kind == protocol.KindTurnEnd {
			return name
		}
	}
	return ""
}

// Calls says whether any event of the agent asks stage.
func (a *Agent) Calls(stage Stage) bool {
	for _, step := range a.Events {
		if slices.Contains(step.Calls, stage) {
			return true
		}
	}
	return false
}

// Called are the stages the agent's events ask, in the order of a turn.
func (a *Agent) Called() []Stage {
	var out []Stage
	for _, st := range Stages {
		if a.Calls(st) {
			out = append(out, st)
		}
	}
	return out
}
