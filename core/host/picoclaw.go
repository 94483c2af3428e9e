package host

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/protocol"
)

// PicoClaw behaves as PicoClaw's host does (its code as of 2026-06,
// snapshot cf67dd38): stages are granted in pairs (before_tool brings
// after_tool, before_llm brings after_llm); the hello reply is read (an
// error or a result that is not an object fails the start, and so the
// agent's, and a hello that never comes is reported as one PicoClaw would
// wait for forever); changed tools in before_llm are reverted and a changed
// system message restores the whole message list; an after_llm modify
// leaves id-only tool calls without names and arguments; respond without a
// result and an unknown action are taken as continue; a continue that
// carries an object is applied as a modify, and a modify without its
// object, or whose object leaves out after_llm's answer or after_tool's
// result, keeps PicoClaw's own; reply lines over
// 1 MiB stop the hook's reader for good; reasons are dropped except on
// deny_tool and approval denials, and hard_abort rolls the session back;
// approvals are read as {approved, reason} only; a crashed hook is never
// restarted; a partial modify leaves the next hook an empty meta; no
// session events are sent; hookwire's extensions are not announced; and
// its agent loop's calls and events have the shape of PicoClaw's (Loop,
// Writes).
var PicoClaw = &Host{
	Name:                      "picoclaw",
	Title:                     "PicoClaw",
	Grants:                    config.PairedStages,
	ReadHello:                 readHello,
	HelloWait:                 picoClawHelloWait,
	MaxLineSize:               PicoClawMaxLineSize,
	StopsReadingAfterLongLine: true,
	Reads:                     readRaw,
	Acts:                      picoClawActs,
	PassesReason:              func(a protocol.Action) bool { return a == protocol.ActionDenyTool },
	ReplacesWhole:             true,
	NeverRestarts:             true,
	NoExtensions:              true,
	Emits: func(kind string) bool {
		return kind != protocol.KindSessionStart && kind != protocol.KindSessionEnd
	},
	Writes:      func(method string) []string { return picoClawWrites[method] },
	LoadConfig:  config.LoadPicoClaw,
	CheckConfig: config.PicoClawFileProblems,
	Loop:        picoClawLoop,
	FailedStart: func(name string, err error) error {
		// PicoClaw unmounts every hook and fails the agent's run.
		return fmt.Errorf("start process hook %q: %w", name, err)
	},
}

// PicoClawMaxLineSize is the longest reply line PicoClaw reads.
const PicoClawMaxLineSize = 1 << 20

// picoClawWrites are the members of each request that PicoClaw writes (its
// Go types), in its order, "!" marking those it writes even when empty; it
// leaves the others out when empty (omitempty).
var picoClawWrites = map[string][]string{
	protocol.MethodBeforeLLM:   {"!meta", "context", "!model", "messages", "tools", "options", "graceful_terminal"},
	protocol.MethodAfterLLM:    {"!meta", "context", "!model", "response"},
	protocol.MethodBeforeTool:  {"!meta", "context", "!tool", "arguments", "channel", "chat_id", "hook_result"},
	protocol.MethodApproveTool: {"!meta", "context", "!tool", "arguments"},
	protocol.MethodAfterTool:   {"!meta", "context", "!tool", "arguments", "result", "!duration"},
}

// picoClawActs is what PicoClaw acts on of a hook's decoded answer to
// method, sent params, and what it discarded or does besides.
func picoClawActs(method string, params, res any) (any, []string) {
	var notes []string
	switch v := res.(type) {
	case protocol.BeforeLLMModify:
		prev, _ := params.(protocol.BeforeLLMParams)
		v.Request, notes = revertToolsAndSystem(v.Request, prev)
		res = v
	case protocol.AfterLLMModify:
		v.Response, notes = eraseToolCalls(v.Response)
		res = v
	case protocol.ApproveToolResult:
		if v.Abstain != nil && *v.Abstain {
			notes = append(notes, "abstain ignored: PicoClaw reads a denial with no reason")
			v.Abstain, v.Reason = nil, nil
		}
		if v.Arguments != nil {
			notes = append(notes, "arguments ignored: PicoClaw runs the tool with the arguments it had")
			v.Arguments = nil
		}
		res = v
	}
	if said, ok := res.(interface{ HookRemarks() protocol.Remarks }); ok {
		if r := said.HookRemarks(); r.Context != nil || r.Message != nil {
			notes = append(notes, "context and message ignored: PicoClaw knows neither (hookwire's extensions result.context and result.message)")
		}
	}
	return res, append(notes, endNotes(res)...)
}

// revertToolsAndSystem puts back the tools and the system messages of the
// request a before_llm hook was sent, as PicoClaw does: a hook may change
// the conversation, not what the LLM is told it can do or who it is.
func revertToolsAndSystem(next, prev protocol.BeforeLLMParams) (protocol.BeforeLLMParams, []string) {
	var notes []string
	if !reflect.DeepEqual(toolMap(next.Tools), toolMap(prev.Tools)) {
		notes = append(notes, "tools change"+toolChanges(next.Tools, prev.Tools)+" reverted: PicoClaw lets no hook change the tools offered to the LLM")
		next.Tools = prev.Tools
	}
	if !reflect.DeepEqual(systemMessages(next.Messages), systemMessages(prev.Messages)) {
		// PicoClaw compares the system messages by index and content, and
		// puts back the whole list it sent, not only them.
		notes = append(notes, "system messages changed: PicoClaw restores the whole message list it sent, so every other message edit of this reply is undone too")
		next.Messages = prev.Messages
	}
	return next, notes
}

// eraseToolCalls is an after_llm modify as PicoClaw reads it: it takes a
// tool call's name and arguments from fields of its own that a reply
// cannot set, which OpenAI-compatible and Anthropic providers have not
// filled in yet, so every tool call comes back with name "" and
// arguments {}.
func eraseToolCalls(resp protocol.AfterLLMParams) (protocol.AfterLLMParams, []string) {
	calls := resp.Response.ToolCalls
	if len(calls) == 0 {
		return resp, nil
	}
	var names []string
	out := make([]protocol.ToolCall, len(calls))
	for i, c := range calls {
		names = append(names, cmp.Or(c.Function.Name, `""`))
		c.Function = protocol.FunctionCall{Name: "", Arguments: "{}"}
		out[i] = c
	}
	resp.Response.ToolCalls = out
	return resp, []string{"tool calls " + strings.Join(names, ", ") + " lost their names and arguments: with id-only tool calls (OpenAI-compatible and Anthropic providers) PicoClaw reads them from fields a modify cannot set; answer continue to keep them"}
}

// endNotes says what PicoClaw does with an answer that ends a turn:
// the reason of abort_turn and hard_abort is dropped, and hard_abort
// rolls the session's history back.
func endNotes(res any) []string {
	var notes []string
	switch v := res.(type) {
	case protocol.AbortTurn:
		if v.Reason != nil && *v.Reason != "" {
			notes = append(notes, "reason dropped: PicoClaw does not pass on the reason of abort_turn")
		}
	case protocol.HardAbort:
		if v.Reason != nil && *v.Reason != "" {
			notes = append(notes, "reason dropped: PicoClaw does not pass on the reason of hard_abort")
		}
		notes = append(notes, "hard_abort: PicoClaw also rolls the session's history back to before the turn")
	}
	return notes
}

// readRaw reads a reply as PicoClaw does before decoding it: an action
// the stage does not know is logged and taken as continue, and so is
// respond without a result ("respond action but no HookResult"), which
// then goes through approval and runs the tool.
func readRaw(method string, raw json.RawMessage) (json.RawMessage, []string) {
	m, ok := protocol.Lookup(method)
	if !ok || m.Variants == nil {
		return raw, nil
	}
	var reply struct {
		Action any             `json:"action"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(raw, &reply) != nil {
		return raw, nil
	}
	action, ok := reply.Action.(string)
	if reply.Action == nil {
		action, ok = "", true // PicoClaw reads an absent action as continue
	}
	switch {
	case !ok:
		return raw, nil
	case action != "" && !slices.Contains(m.Actions(), protocol.Action(action)):
		return continueReply, []string{fmt.Sprintf("unknown action %q taken as continue: PicoClaw logs it and goes on", action)}
	case action == string(protocol.ActionRespond) && absent(reply.Result):
		return continueReply, []string{`respond without a result taken as continue: PicoClaw logs "respond action but no HookResult", then the call goes through approval and the tool runs`}
	case action == "" || action == string(protocol.ActionContinue) || action == string(protocol.ActionModify):
		return readCarried(method, protocol.Action(action), raw)
	}
	return raw, nil
}

// carried is the member of a continue or modify reply that carries the
// object, by method, and the member of that object that PicoClaw's loop
// keeps its own of when the object leaves it out (after_llm's answer,
// after_tool's result).
var carried = map[string]struct{ member, inner string }{
	protocol.MethodBeforeLLM:  {"request", ""},
	protocol.MethodAfterLLM:   {"response", "response"},
	protocol.MethodBeforeTool: {"call", ""},
	protocol.MethodAfterTool:  {"result", "result"},
}

// readCarried reads a continue or modify as PicoClaw does: it takes
// whatever object either carries in place of its own (hooks.go treats
// continue and modify alike, and a reply without the object as one that
// changed nothing); and its loop keeps its own answer or tool result when
// the object leaves that out (pipeline_llm.go, pipeline_execute.go).
func readCarried(method string, action protocol.Action, raw json.RawMessage) (json.RawMessage, []string) {
	c, ok := carried[method]
	if !ok || (action != protocol.ActionModify && !bytes.Contains(raw, []byte(`"`+c.member+`"`))) {
		return raw, nil // the common continue, read once
	}
	var reply map[string]json.RawMessage
	if json.Unmarshal(raw, &reply) != nil {
		return raw, nil
	}
	object := reply[c.member]
	modify := action == protocol.ActionModify
	switch {
	case absent(object) && modify:
		return continueReply, []string{fmt.Sprintf("modify without a %s taken as continue: PicoClaw keeps the object it sent", c.member)}
	case absent(object):
		return raw, nil
	}
	if c.inner != "" {
		var inner map[string]json.RawMessage
		if json.Unmarshal(object, &inner) == nil && absent(inner[c.inner]) {
			if !modify {
				return raw, nil // the loop keeps its own: nothing changes
			}
			return continueReply, []string{fmt.Sprintf("modify whose %s has no %s taken as continue: PicoClaw keeps its own %s", c.member, c.inner, map[string]string{"response": "answer", "result": "tool result"}[c.inner])}
		}
	}
	if modify {
		return raw, nil
	}
	reply["action"] = json.RawMessage(`"modify"`)
	out, err := json.Marshal(reply)
	if err != nil {
		return raw, nil
	}
	return out, []string{fmt.Sprintf("continue carrying a %s applied as a modify: PicoClaw replaces the object it sent with the one a continue carries, as it does a modify's (the protocol documents' continue changes nothing)", c.member)}
}

// absent reports whether a member is left out or null.
func absent(v json.RawMessage) bool {
	return len(v) == 0 || string(bytes.TrimSpace(v)) == "null"
}

var continueReply = json.RawMessage(`{"action":"continue"}`)

// picoClawHelloWait is how long a hook that does not answer hook.hello is
// waited for under PicoClaw before the run reports that PicoClaw would
// wait for it forever.
const picoClawHelloWait = 5 * time.Second

// readHello reads the hello reply as PicoClaw does: an error, or a result
// that is not a JSON object, fails the hook's start (and so the agent's);
// null, an absent result or any object is fine, whatever it says. PicoClaw's
// agent start-up gives hello no deadline: a hello that never comes is
// reported, after a bound, as what PicoClaw would wait for forever.
func readHello(raw json.RawMessage, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no %s reply: PicoClaw would wait here forever (its agent's start-up gives hello no deadline; hookwire gave up after %v)", protocol.MethodHello, picoClawHelloWait)
	case err != nil:
		return fmt.Errorf("%s: %w", protocol.MethodHello, err)
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" || trimmed[0] == '{' {
		return nil
	}
	return fmt.Errorf("%s: the result is not a JSON object: %s", protocol.MethodHello, trimmed)
}

// toolMap keys each tool by its name; a second tool of the same name, as a
// hook may add beside one the host offers, is "name (2nd)", and so on.
func toolMap(tools []protocol.ToolDefinition) map[string]string {
	m := map[string]string{}
	seen := map[string]int{}
	for _, t := range tools {
		b, _ := protocol.Marshal(t)
		key := t.Function.Name
		if seen[key]++; seen[key] > 1 {
			key = fmt.Sprintf("%s (%s)", key, ordinal(seen[key]))
		}
		m[key] = string(b)
	}
	return m
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// toolChanges names the tools added, removed and changed: " (added get_weather)".
func toolChanges(next, prev []protocol.ToolDefinition) string {
	a, b := toolMap(next), toolMap(prev)
	var parts []string
	for _, what := range []struct {
		verb string
		keep func(name string) bool
	}{
		{"added", func(n string) bool { _, ok := b[n]; return !ok }},
		{"removed", func(n string) bool { _, ok := a[n]; return !ok }},
		{"changed", func(n string) bool { v, ok := b[n]; return ok && a[n] != "" && v != a[n] }},
	} {
		var names []string
		for _, n := range slices.Sorted(maps.Keys(mergeKeys(a, b))) {
			if what.keep(n) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			parts = append(parts, what.verb+" "+strings.Join(names, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func mergeKeys(a, b map[string]string) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

func systemMessages(msgs []protocol.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == "system" {
			b, _ := protocol.Marshal(m)
			out = append(out, string(b))
		}
	}
	return out
}
