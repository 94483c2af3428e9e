package bridge

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/agents"
	"github.com/hookwire/hookwire/core/protocol"
)

// What the user sees when a hook cannot answer: each agent's channel for a
// message to the user (systemMessage, for Claude Code and Gemini CLI),
// naming the hook, what went wrong, the last lines of its stderr and the
// session's log, where the rest is.

// NameOf names a hook after its script: the first argument after the
// interpreter that names a file (python3 guard.py: guard.py), or the
// command itself (./guard: guard).
func NameOf(argv []string) string {
	if len(argv) == 0 {
		return "hook"
	}
	for _, arg := range argv[1:] {
		if !strings.HasPrefix(arg, "-") && filepath.Ext(arg) != "" {
			return filepath.Base(arg)
		}
	}
	return filepath.Base(argv[0])
}

// problem is the message to the user about a hook that could not answer.
func (o outcome) problem() string {
	var b strings.Builder
	b.WriteString("hookwire: ")
	if o.failure != "" {
		b.WriteString(o.failure)
		switch {
		case o.step.Guard && o.failOpen:
			b.WriteString(leftToTheAgent)
		case o.step.Guard:
			b.WriteString("; the tool call was blocked")
		}
	} else {
		b.WriteString(strings.Join(o.skipped, "; "))
		if o.step.Guard {
			b.WriteString(leftToTheAgent)
		} else {
			b.WriteString("; the agent went on without it")
		}
	}
	if len(o.stderr) > 0 {
		b.WriteString("\nits stderr ended with:")
		for _, line := range o.stderr {
			b.WriteString("\n  " + line)
		}
	}
	if o.log != "" {
		b.WriteString("\nits log: " + o.log)
	}
	return b.String()
}

// leftToTheAgent ends the message about a guard the hook could not answer
// under --failure-policy open: the bridge gave no decision, neither allow
// nor deny, so the call is the agent's to decide as without a hook.
const leftToTheAgent = "; the bridge gave no decision on the tool call: the agent's own permission rules decide, as without a hook (--failure-policy open)"

// withMessage adds a message for the user to a reply the agent reads as
// JSON on stdout, as the member key the agent shows (systemMessage); to a
// reply by exit code, or with no key, on stderr, which the agent shows.
func withMessage(r Reply, key, message string) Reply {
	if r.Exit != 0 || key == "" {
		r.Stderr = strings.TrimSuffix(r.Stderr+"\n"+message, "\n")
		return r
	}
	return edited(r, func(out map[string]any) {
		if before, _ := out[key].(string); before != "" {
			message = before + "\n" + message
		}
		out[key] = message
	})
}

// withContext adds text for the model to a reply, as the agents that read
// it take it: hookSpecificOutput.additionalContext.
func withContext(r Reply, ev Event, text string) Reply {
	return withContextAt(r, "hookSpecificOutput", "additionalContext", text, map[string]any{"hookEventName": ev.Name})
}

// withContextAt adds text for the model to a reply's object member, after
// the text there, with the members of also beside it.
func withContextAt(r Reply, object, member, text string, also map[string]any) Reply {
	return edited(r, func(out map[string]any) {
		specific, _ := out[object].(map[string]any)
		if specific == nil {
			specific = map[string]any{}
			out[object] = specific
		}
		if before, _ := specific[member].(string); before != "" {
			text = before + "\n\n" + text
		}
		maps.Copy(specific, also)
		specific[member] = text
	})
}

// edited is r with its JSON object on stdout changed by change; a reply by
// exit code, or one whose stdout is not a JSON object, is left as it is.
func edited(r Reply, change func(map[string]any)) Reply {
	out := map[string]any{}
	if r.Exit != 0 || r.Stdout != "" && json.Unmarshal([]byte(r.Stdout), &out) != nil {
		return r // not ours to change
	}
	change(out)
	r.Stdout = encode(out)
	return r
}

// blockedOrWarned is the reply to an event whose hook could not answer:
// block names the agent's own form of a blocked tool call for the event,
// nil when the event has none (then exit code 2, which blocks whatever
// the event is, with the reason on stderr). Events that guard nothing, and
// guards under --failure-policy open, get the message alone: no decision,
// so that a guard goes to the agent's own permission rules, never an
// allow that would skip them.
func blockedOrWarned(o outcome, block map[string]any) Reply {
	message := o.problem()
	switch {
	case !o.step.Guard || o.failOpen:
		return Reply{Stdout: encode(map[string]any{"systemMessage": message})}
	case block == nil:
		return Reply{Exit: 2, Stderr: message}
	}
	block["systemMessage"] = message
	return Reply{Stdout: encode(block)}
}

// stderrTail keeps the last lines the hook wrote on its stderr, which the
// runtime logs with stream=stderr.
type stderrTail struct {
	mu    sync.Mutex
	lines []string
	at    time.Time // when the last line came
}

// settle waits, at most half a second, until the hook's stderr has been
// quiet for a tenth of one: a failed call's reply and the traceback that
// explains it come on two pipes, and the reply may come first (a Python
// hook loads its logging only to write the traceback). Only a failure
// waits.
func (t *stderrTail) settle() {
	const quiet, most = 100 * time.Millisecond, 500 * time.Millisecond
	for start := time.Now(); time.Since(start) < most; time.Sleep(5 * time.Millisecond) {
		t.mu.Lock()
		since := time.Since(t.at)
		t.mu.Unlock()
		if since >= quiet && time.Since(start) >= quiet {
			return
		}
	}
}

// tailLines is how many lines of a hook's stderr a message quotes, of the
// keptLines kept.
const (
	tailLines = 5
	keptLines = 50
)

// last are the last lines of the hook's stderr that say something: a
// stack's frames (Node.js's "    at ..."), blank lines and the Node.js
// version it prints last are left out, so that the error itself shows.
func (t *stderrTail) last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, line := range t.lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "at ") || strings.HasPrefix(trimmed, "Node.js v") {
			continue
		}
		out = append(out, line)
	}
	return out[max(0, len(out)-tailLines):]
}

func (t *stderrTail) wrap(h slog.Handler) slog.Handler { return tailHandler{h, t} }

type tailHandler struct {
	slog.Handler
	tail *stderrTail
}

func (h tailHandler) Handle(ctx context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "stream" && a.Value.String() == "stderr" {
			h.tail.mu.Lock()
			h.tail.lines, h.tail.at = append(h.tail.lines, r.Message), time.Now()
			if len(h.tail.lines) > keptLines {
				h.tail.lines = h.tail.lines[len(h.tail.lines)-keptLines:]
			}
			h.tail.mu.Unlock()
			return false
		}
		return true
	})
	return h.Handler.Handle(ctx, r)
}

func (h tailHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return tailHandler{h.Handler.WithAttrs(attrs), h.tail}
}

func (h tailHandler) WithGroup(name string) slog.Handler {
	return tailHandler{h.Handler.WithGroup(name), h.tail}
}

// blockOnly is the decision of an agent that reads, before a tool, only a
// block (block writes it, with its reason, and whether the hook failed) or
// nothing, which allows, and
// nothing at its other events. Such an agent takes a hook that fails or
// says neither for one it may pass over, and runs the tool: a guard the
// hook cannot answer is blocked here.
func blockOnly(a *agents.Agent, o outcome, block func(reason string, failed bool) Reply) Reply {
	switch {
	case !o.step.Guard:
		if o.failure != "" {
			return Reply{Stderr: o.problem()}
		}
		return Reply{}
	case o.failure != "" && o.failOpen:
		return Reply{Stderr: o.problem()}
	case o.failure != "":
		r := block(o.failure, true)
		r.Stderr = o.problem()
		if a.Quirks.EndsRun {
			r.Stderr = strings.Replace(r.Stderr, "; the tool call was blocked", "; "+a.Title+"'s whole run was ended (it stops a tool call only so)", 1)
		}
		return r
	case o.ended != nil && o.ended.action == protocol.ActionRespond:
		return block(o.ended.forLLM, false)
	case o.ended != nil:
		return block(o.ended.because(), false)
	case o.approval != nil && o.approval.denied() && !o.approval.byDefault:
		return block(o.approval.because(), false)
	case o.args != nil:
		return block(a.Title+" cannot take a rewritten call: a hook rewrote it to "+encode(o.args), false)
	}
	return Reply{} // an allow: the agent's own mode decides
}
