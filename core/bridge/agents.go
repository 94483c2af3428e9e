// Package bridge runs hookwire hooks as the command hooks of agents that
// start a command per event (Claude Code, Gemini CLI, Codex CLI, GitHub
// Copilot CLI, Cursor, Factory Droid, Qwen Code): the event's JSON on stdin,
// a decision as JSON on stdout and an exit code.
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
	"maps"
	"slices"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

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

// Runtime event kinds the bridge raises that the protocol's agent loop has
// no event for.
const (
	KindNotification = "agent.notification"
	KindCompact      = "agent.context.compact"
)

// Agent is an agent whose command hooks the bridge speaks: how its events
// map to the protocol, and how decisions map back.
type Agent struct {
	// Name is how the bridge command names it: claude-code, gemini-cli, ...
	Name string
	// Title is how people write its name: Claude Code, Gemini CLI.
	Title string
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
	// idleWhy says, in docs/agent-events.md, why Idle is set.
	idleWhy string
	// parse reads an event as the agent writes it; nil: ParseEvent.
	parse func(data []byte) (Event, error)
	// decide turns the outcome of an event into what the agent reads.
	decide func(ev Event, o outcome) Reply
	// toolResult reads a tool's outcome from an event after a tool; nil:
	// claudeToolResult.
	toolResult func(ev Event) protocol.ToolResult
	// message is the member of a JSON reply whose text the agent shows
	// its user; empty: systemMessage.
	message string
	// llm translates the agent's model request and response, where it has
	// model events.
	llm llmFormat
}

// Parse reads an event as the agent writes it on a hook's stdin.
func (a *Agent) Parse(data []byte) (Event, error) {
	if a.parse != nil {
		return a.parse(data)
	}
	return ParseEvent(data)
}

// messageKey is the member of a JSON reply whose text the agent shows its
// user.
func (a *Agent) messageKey() string { return cmp.Or(a.message, "systemMessage") }

// deadline is the bridge's deadline for an event of the agent, unless the
// command line sets one.
func (a *Agent) deadline() time.Duration { return cmp.Or(a.Deadline, DefaultDeadline) }

// idle is how long a session's server of the agent waits for an event,
// unless the command line sets it.
func (a *Agent) idle() time.Duration { return cmp.Or(a.Idle, DefaultIdle) }

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

// calls says whether any event of the agent asks stage.
func (a *Agent) calls(stage Stage) bool {
	for _, step := range a.Events {
		if slices.Contains(step.Calls, stage) {
			return true
		}
	}
	return false
}

// Agents are the agents the bridge speaks, by name.
var Agents = map[string]*Agent{
	claudeCode.Name:   claudeCode,
	geminiCLI.Name:    geminiCLI,
	codexCLI.Name:     codexCLI,
	copilotCLI.Name:   copilotCLI,
	cursor.Name:       cursor,
	factoryDroid.Name: factoryDroid,
	qwenCode.Name:     qwenCode,
}

var claudeCode = &Agent{
	Name:     "claude-code",
	Title:    "Claude Code",
	Document: "the 33 hook events of Claude Code 2.1.331 (its own hook schema), with the hooks reference of code.claude.com/docs/en/hooks (May 2026) for their meaning",
	Events: map[string]Step{
		"PreToolUse":         {Calls: []Stage{BeforeTool, Approval}, Guard: true, Context: true},
		"PermissionRequest":  {Calls: []Stage{Approval}, Guard: true},
		"PostToolUse":        {Calls: []Stage{AfterTool}, Context: true},
		"PostToolUseFailure": {Calls: []Stage{AfterTool}, Context: true},
		"PostToolBatch":      {Kind: "agent.tool.batch_end"},
		// The prompt as a before_llm call: messages a modify appends reach
		// Claude as context of the prompt, abort_turn blocks the prompt.
		"UserPromptSubmit":    {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"UserPromptExpansion": {Kind: "agent.prompt.expansion"},
		// Claude's last answer of a turn as an after_llm call: context on
		// the answer keeps the turn going (once a turn: Claude says when it
		// already goes on for a stop hook, stop_hook_active).
		"Stop":               {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":        {Kind: protocol.KindError},
		"SubagentStart":      {Kind: "agent.subagent.start"},
		"SubagentStop":       {Kind: protocol.KindTurnEnd},
		"SessionStart":       {Kind: protocol.KindSessionStart},
		"SessionEnd":         {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Setup":              {Kind: "agent.setup"},
		"Notification":       {Kind: KindNotification},
		"MessageDisplay":     {Kind: "agent.message.display"},
		"PreCompact":         {Kind: KindCompact},
		"PostCompact":        {Kind: "agent.context.compacted"},
		"PreModelSwitch":     {Kind: "agent.model.switch"},
		"PostModelSwitch":    {Kind: "agent.model.switched"},
		"PermissionDenied":   {Kind: "agent.permission.denied"},
		"TeammateIdle":       {Kind: "agent.teammate.idle"},
		"TaskCreated":        {Kind: "agent.task.created"},
		"TaskCompleted":      {Kind: "agent.task.completed"},
		"ElicitationResult":  {Kind: "agent.elicitation.result"},
		"ConfigChange":       {Kind: "agent.config.change"},
		"WorktreeRemove":     {Kind: "agent.worktree.remove"},
		"InstructionsLoaded": {Kind: "agent.instructions.loaded"},
		"CwdChanged":         {Kind: "agent.cwd.changed"},
		"FileChanged":        {Kind: "agent.file.changed"},
		"DirectoryAdded":     {Kind: "agent.directory.added"},
		"Elicitation": {NotMapped: "an MCP server asks the user for input, and a hook would answer in the user's place: " +
			"the protocol has no call that answers with the user's input"},
		"WorktreeCreate": {NotMapped: "the hook replaces Claude Code's own creation of a worktree and prints the new worktree's path: " +
			"no protocol call creates a worktree or answers with a path"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach Claude as context of the prompt (additionalContext), abort_turn blocks the prompt; tools cannot be added, nor other messages changed (serve plugin tools with `hookwire mcp`)",
		"after_llm is called once per turn, at Stop, with Claude's last answer: a modify cannot change the answer the user has read (it is shown as it was), and context on it keeps the turn going once a turn (Claude then says stop_hook_active, and a second request to go on is not passed on, so that no hook keeps Claude going forever)",
		"respond cannot answer a tool call in Claude Code: it becomes a deny whose reason is the hook's result, which Claude reads in place of the tool's",
		"an after_tool modify replaces the output Claude reads only where the new text fits the tool's output (text, Bash's stdout, Read's content, an MCP tool's text, or the tool's own JSON); elsewhere Claude reads the output unchanged, and you are told",
	},
	decide: claudeForm{agent: "claude-code", title: "Claude Code"}.decide,
	llm:    claudePrompt{},
}

var geminiCLI = &Agent{
	Name:     "gemini-cli",
	Title:    "Gemini CLI",
	Document: "the 11 hook events of Gemini CLI 0.61.0 (its HookEventName), with its hooks reference (docs/hooks/reference.md of google-gemini/gemini-cli, commit 06c0d81) for their meaning",
	Events: map[string]Step{
		"BeforeTool":  {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"AfterTool":   {Calls: []Stage{AfterTool}, Context: true},
		"BeforeModel": {Calls: []Stage{BeforeLLM}},
		// Gemini reads no context at AfterModel (a chunk of the answer):
		// it waits for the end of the turn, where it keeps the turn going.
		"AfterModel":          {Calls: []Stage{AfterLLM}, ContextLater: "AfterAgent"},
		"BeforeToolSelection": {Kind: protocol.KindLLMRequest},
		"BeforeAgent":         {Kind: protocol.KindTurnStart, NewTurn: true},
		"AfterAgent":          {Kind: protocol.KindTurnEnd, KeepGoing: "deny", NewTurn: true},
		"SessionStart":        {Kind: protocol.KindSessionStart},
		"SessionEnd":          {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Notification":        {Kind: KindNotification},
		"PreCompress":         {Kind: KindCompact},
	},
	Cannot: []string{
		"Gemini CLI takes no new tools from a BeforeModel hook: tools a before_llm modify adds are dropped (serve plugin tools with `hookwire mcp`)",
		"respond cannot answer a tool call in Gemini CLI: it becomes a deny whose reason, the hook's result, the model reads as the tool's error",
		"an approver's abstention has no counterpart in Gemini CLI: the call goes on as if no hook had looked at it",
		"Gemini CLI reads no context at AfterModel: context on an after_llm answer waits for AfterAgent, the end of the turn, where it keeps the turn going once a turn (hookwire install names AfterAgent for an llm hook; by hand, name it in the settings too)",
		"Gemini CLI 0.61.0 reads no new tool output: an after_tool modify blocks the result, and the model reads \"Tool result blocked: \" and the new text in its place",
	},
	decide:     geminiDecide,
	toolResult: geminiToolResult,
	llm:        geminiLLM{},
}

// The agents that write Claude Code's format, each with what it does
// differently (claudeForm).

var codexCLI = &Agent{
	Name:     "codex-cli",
	Title:    "Codex CLI",
	Document: "the 13 hook events of Codex CLI 0.171.0 (the input and output schemas of codex-rs/hooks/schema/generated in openai/codex, and the events the pinned Codex CLI sends), with developers.openai.com/codex/hooks (2026) for their meaning",
	Events: map[string]Step{
		"PreToolUse":        {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PermissionRequest": {Calls: []Stage{Approval}, Guard: true},
		"PostToolUse":       {Calls: []Stage{AfterTool}, Context: true},
		"UserPromptSubmit":  {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		// The last answer of a turn as an after_llm call, as Claude Code's.
		"Stop":         {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":  {Kind: protocol.KindError},
		"SessionStart": {Kind: protocol.KindSessionStart},
		"SessionEnd":   {Kind: protocol.KindSessionEnd, EndsSession: true},
		// Before each model request; it carries none of the request.
		"PreModelRequest": {Kind: protocol.KindLLMRequest},
		"SubagentStart":   {Kind: "agent.subagent.start"},
		"SubagentStop":    {Kind: protocol.KindTurnEnd},
		"PreCompact":      {Kind: KindCompact},
		"PostCompact":     {Kind: "agent.context.compacted"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach the model as context of the prompt, abort_turn blocks the prompt",
		"after_llm is called once per turn, at Stop, with the last answer: a modify cannot change it, and context on it keeps the turn going once a turn",
		"respond cannot answer a tool call in Codex CLI: it becomes a deny whose reason is the hook's result",
		"Codex CLI fails closed on new arguments at PermissionRequest: an approval that rewrites the call there denies it, naming the new arguments",
		"Codex CLI 0.171.0 takes some PreToolUse replies for a failed hook, and runs the tool: the bridge never asks there (a rewritten call no approver allowed goes on rewritten), sends the call's own input with an allow, and denies the call on abort_turn and hard_abort, whose turn goes on: every later tool call of the turn (its turn_id) is denied too",
		"Codex CLI 0.171.0 takes no updatedToolOutput: an after_tool modify blocks the output, and the model reads the new text in its place",
		"Codex CLI runs a hook only once its user has reviewed it (/hooks in its TUI): until then it runs no hook at all, and says so only there",
	},
	decide: claudeForm{agent: "codex-cli", title: "Codex CLI", noApprovalInput: true, noAsk: true, allowNeedsInput: true, noStopAtGuard: true, newOutput: outputBlock}.decide,
	llm:    claudePrompt{},
}

var factoryDroid = &Agent{
	Name:     "factory-droid",
	Title:    "Factory Droid",
	Document: "the 9 hook events of Factory Droid's hooks reference (docs.factory.ai/reference/hooks-reference, 2026; droid 0.225.1 on npm as @factory/cli)",
	Events: map[string]Step{
		"PreToolUse":       {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PostToolUse":      {Calls: []Stage{AfterTool}},
		"UserPromptSubmit": {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"Stop":             {Kind: protocol.KindTurnEnd, NewTurn: true},
		"SubagentStop":     {Kind: protocol.KindTurnEnd},
		"SessionStart":     {Kind: protocol.KindSessionStart},
		"SessionEnd":       {Kind: protocol.KindSessionEnd, EndsSession: true},
		"Notification":     {Kind: KindNotification},
		"PreCompact":       {Kind: KindCompact},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach Droid as context of the prompt, abort_turn blocks the prompt; after_llm is never called",
		"respond cannot answer a tool call in Factory Droid: it becomes a deny whose reason is the hook's result",
		"Factory Droid takes no new tool output: an after_tool modify reaches the model as feedback after the output, which it still reads (a redactor cannot hide a secret there)",
	},
	decide: claudeForm{agent: "factory-droid", title: "Factory Droid", newOutput: outputBlock}.decide,
	llm:    claudePrompt{},
}

var qwenCode = &Agent{
	Name:     "qwen-code",
	Title:    "Qwen Code",
	Document: "the 22 hook events of Qwen Code 0.24.4 (docs/features/hooks.md as its npm package ships it, and its hook runner)",
	// Its headless runs (-p) end without SessionEnd: with the 30 minutes of
	// DefaultIdle, 20 runs left 17 servers and their hooks running (about
	// 130 MiB). An interactive session quiet for longer starts its hook
	// again at its next event, with the hook's state anew.
	Idle:    5 * time.Minute,
	idleWhy: "its headless runs (`-p`) end without `SessionEnd`, and each would leave its session's server and hook running for 30 minutes; an interactive session quiet for longer starts its hook again at its next event, and the hook's state starts anew",
	Events: map[string]Step{
		"PreToolUse":          {Calls: []Stage{BeforeTool, Approval}, Guard: true},
		"PermissionRequest":   {Calls: []Stage{Approval}, Guard: true},
		"PostToolUse":         {Calls: []Stage{AfterTool}, Context: true},
		"PostToolUseFailure":  {Calls: []Stage{AfterTool}, Context: true},
		"PostToolBatch":       {Kind: "agent.tool.batch_end"},
		"UserPromptSubmit":    {Kind: protocol.KindTurnStart, Calls: []Stage{BeforeLLM}, NewTurn: true},
		"UserPromptExpansion": {Kind: "agent.prompt.expansion"},
		"SessionStart":        {Kind: protocol.KindSessionStart},
		"SessionEnd":          {Kind: protocol.KindSessionEnd, EndsSession: true},
		"SessionDelete":       {Kind: "agent.session.deleted"},
		"MessageDisplay":      {Kind: "agent.message.display"},
		// The last answer of a turn as an after_llm call, as Claude Code's.
		"Stop":               {Kind: protocol.KindTurnEnd, Calls: []Stage{AfterLLM}, KeepGoing: "block", NewTurn: true},
		"StopFailure":        {Kind: protocol.KindError},
		"SubagentStart":      {Kind: "agent.subagent.start"},
		"SubagentStop":       {Kind: protocol.KindTurnEnd},
		"PreCompact":         {Kind: KindCompact},
		"PostCompact":        {Kind: "agent.context.compacted"},
		"Notification":       {Kind: KindNotification},
		"PermissionDenied":   {Kind: "agent.permission.denied"},
		"TodoCreated":        {Kind: "agent.todo.created"},
		"TodoCompleted":      {Kind: "agent.todo.completed"},
		"InstructionsLoaded": {Kind: "agent.instructions.loaded"},
	},
	Cannot: []string{
		"before_llm is called once per prompt (UserPromptSubmit), with the prompt as the one message: messages a modify appends reach the model as context of the prompt, abort_turn blocks the prompt",
		"after_llm is called once per turn, at Stop, with the last answer: a modify cannot change it, and context on it keeps the turn going once a turn",
		"respond cannot answer a tool call in Qwen Code: it becomes a deny whose reason is the hook's result",
		"Qwen Code 0.24.4 takes no new arguments at PreToolUse: a call a hook rewrote is denied, naming the new arguments",
		"Qwen Code takes no new tool output: an after_tool modify stops the tool's result, and the model reads an error with the new text in its place",
	},
	decide: claudeForm{agent: "qwen-code", title: "Qwen Code", noNewInput: true, newOutput: outputStop}.decide,
	llm:    claudePrompt{},
}
