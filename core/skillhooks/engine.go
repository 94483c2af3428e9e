package skillhooks

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/hookwire/hookwire/core/protocol"
)

// Engine inserts the messages of prompt hooks into the LLM requests of
// turns, following each hook's timing. It is an in-process hook of the
// reference runtime (it implements runtime.LLMInterceptor and
// runtime.ToolInterceptor) and the handler behind the skill-hooks command.
// Its methods are safe for concurrent use.
type Engine struct {
	hooks []Hook

	mu       sync.Mutex
	clock    uint64 // orders insertions, and turns by last use
	sessions map[string]*session
	turns    map[turnKey]*turn
}

// MaxTurns is how many turns an Engine follows at once: a host sends no
// word when a turn ends, so the least recently used turn is forgotten to
// make room for a new one.
const MaxTurns = 256

// New makes an engine for these hooks, as Load returns them.
func New(hooks []Hook) *Engine {
	return &Engine{hooks: slices.Clone(hooks), sessions: map[string]*session{}, turns: map[turnKey]*turn{}}
}

type turnKey struct{ session, turn string }

// session holds what outlives a turn: the persistent messages.
type session struct {
	kept []entry
	seen map[string]bool // skill/name of the persistent hooks in kept
}

// turn is the document's HookManager for one turn: the hook messages in
// the turn's message list, placed relative to the host's messages.
type turn struct {
	key      turnKey
	started  bool
	start    int  // host messages at the turn's first LLM call
	rounds   int  // agent rounds so far
	toolsRan bool // a tool ran since the last agent round
	live     []entry
	used     uint64
}

// entry is a hook message in a turn's list: it sits before the host
// message at index at (after all of them when at is the length of the
// list), after entries of the same place inserted earlier.
type entry struct {
	hook *Hook
	turn turnKey
	at   int
	seq  uint64
}

// pending places an after_tool_call message at the end of the next
// request: after the results of the tools of its round.
const pending = -1

// BeforeLLM inserts the hook messages the request should carry and
// answers with a modify carrying the whole request; with none, it answers
// continue. The request the host stores stays its own: hook messages
// exist only in what the LLM is sent.
func (e *Engine) BeforeLLM(_ context.Context, req protocol.BeforeLLMParams) (protocol.BeforeLLMResult, error) {
	session, turn := ids(req.Meta)
	ins := e.Plan(Request{SessionKey: session, TurnID: turn, Messages: len(req.Messages),
		Planning: req.Planning != nil && *req.Planning, Tools: len(req.Tools) > 0})
	if len(ins) == 0 {
		return protocol.Continue{}, nil
	}
	req.Messages = Insert(req.Messages, ins, func(role, content string) protocol.Message {
		return protocol.Message{Role: role, Content: &content}
	})
	return protocol.BeforeLLMModify{Action: protocol.ActionModify, Request: req}, nil
}

// AfterTool notes the tool that ran (see ToolRan) and answers continue.
func (e *Engine) AfterTool(_ context.Context, res protocol.AfterToolParams) (protocol.AfterToolResult, error) {
	session, turn := ids(res.Meta)
	e.ToolRan(session, turn, res.Tool)
	return protocol.Continue{}, nil
}

// Request is what the engine reads of an LLM request, whatever types carry
// it: whose turn it is, how many messages the host sent, whether the call
// plans the turn and whether it offers the LLM tools.
type Request struct {
	SessionKey, TurnID string
	Messages           int
	Planning, Tools    bool
}

// Insertion is a hook message to place before the host's message at At,
// or after all of them when At is their count.
type Insertion struct {
	At            int
	Role, Content string
}

// Plan notes an LLM request and returns the hook messages it should carry,
// in order, for Insert to place; none when it goes as the host sent it.
// BeforeLLM is Plan and Insert on the protocol's types.
func (e *Engine) Plan(req Request) []Insertion {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, t := e.state(turnKey{req.SessionKey, req.TurnID})
	n := req.Messages
	if !t.started {
		t.started, t.start = true, n
		e.fire(s, t, AfterUserInput, n, "")
	}
	var once []entry
	switch {
	case req.Planning:
		// Removed right after the planning call: only this request has them.
		for i := range e.hooks {
			if h := &e.hooks[i]; h.Timing == BeforePlanning {
				if h.Persistent {
					e.inject(s, t, h, n)
				} else {
					once = append(once, entry{hook: h, at: n, seq: e.tick()})
				}
			}
		}
	case t.rounds == 0 && !req.Tools:
		// The documents' direct call: with no tools there is no agent
		// loop, so only after_user_input applies.
	default:
		t.rounds++
		t.remove(BeforeEachAgent)
		e.fire(s, t, BeforeEachAgent, n, "")
		if t.rounds == 1 {
			e.fire(s, t, BeforeFirstAgent, n, "")
		}
		t.toolsRan = false
	}
	return e.placed(n, s, t, once)
}

// ToolRan notes a tool that ran in a turn: the first tool of a round
// removes the after_tool_call messages of the previous one, and each tool
// that passes a hook's filter inserts its message for the next LLM call.
func (e *Engine) ToolRan(sessionKey, turnID, tool string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, t := e.state(turnKey{sessionKey, turnID})
	if !t.toolsRan {
		t.toolsRan = true
		t.remove(AfterToolCall)
	}
	e.fire(s, t, AfterToolCall, pending, tool)
}

// Insert returns the host's messages with the hook messages of a Plan in
// place, each made by message: any message type will do.
func Insert[M any](host []M, ins []Insertion, message func(role, content string) M) []M {
	out := make([]M, 0, len(host)+len(ins))
	for i := 0; i <= len(host); i++ {
		for len(ins) > 0 && ins[0].At == i {
			out = append(out, message(ins[0].Role, ins[0].Content))
			ins = ins[1:]
		}
		if i < len(host) {
			out = append(out, host[i])
		}
	}
	return out
}

// OnEvent forgets a session when the host ends it (agent.session.end): as
// in the document, where clearing a conversation drops its hook messages,
// a session that ends takes its persistent messages with it.
func (e *Engine) OnEvent(_ context.Context, ev protocol.RuntimeEvent) error {
	if ev.Kind == protocol.KindSessionEnd && ev.Scope.SessionKey != nil {
		e.EndSession(*ev.Scope.SessionKey)
	}
	return nil
}

// EndSession forgets all the engine keeps for a session: its persistent
// messages and the state of its turns.
func (e *Engine) EndSession(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.sessions, key)
	for k := range e.turns {
		if k.session == key {
			delete(e.turns, k)
		}
	}
}

// AfterLLM lets the answer through: no timing depends on it.
func (e *Engine) AfterLLM(context.Context, protocol.AfterLLMParams) (protocol.AfterLLMResult, error) {
	return protocol.Continue{}, nil
}

// BeforeTool lets the call through: a tool counts once it has run.
func (e *Engine) BeforeTool(context.Context, protocol.BeforeToolParams) (protocol.BeforeToolResult, error) {
	return protocol.Continue{}, nil
}

func (e *Engine) tick() uint64 {
	e.clock++
	return e.clock
}

// ids are the session and turn a call belongs to, by its meta.
func ids(meta *protocol.Meta) (sessionKey, turnID string) {
	if meta == nil {
		return "", ""
	}
	return deref(meta.SessionKey), deref(meta.TurnID)
}

// state finds the session and turn of a call.
func (e *Engine) state(k turnKey) (*session, *turn) {
	s := e.sessions[k.session]
	if s == nil {
		s = &session{seen: map[string]bool{}}
		e.sessions[k.session] = s
	}
	t := e.turns[k]
	if t == nil {
		if len(e.turns) >= MaxTurns {
			var oldest *turn
			for _, o := range e.turns {
				if oldest == nil || o.used < oldest.used {
					oldest = o
				}
			}
			delete(e.turns, oldest.key)
		}
		t = &turn{key: k}
		e.turns[k] = t
	}
	t.used = e.tick()
	return s, t
}

// fire inserts the messages of the hooks of a timing at a place; tool is
// the tool that ran, for after_tool_call.
func (e *Engine) fire(s *session, t *turn, timing Timing, at int, tool string) {
	for i := range e.hooks {
		h := &e.hooks[i]
		if h.Timing != timing || (h.ToolFilter != nil && !slices.Contains(h.ToolFilter, tool)) {
			continue
		}
		e.inject(s, t, h, at)
	}
}

// inject inserts one hook's message. A persistent one joins the session,
// once: it is never removed, so a second copy would say nothing new.
func (e *Engine) inject(s *session, t *turn, h *Hook, at int) {
	x := entry{hook: h, turn: t.key, at: at, seq: e.tick()}
	if !h.Persistent {
		t.live = append(t.live, x)
		return
	}
	id := h.Skill + "/" + h.Name
	if s.seen[id] {
		return
	}
	s.seen[id] = true
	s.kept = append(s.kept, x)
}

// remove takes the non-persistent messages of a timing out of the turn;
// persistent ones stay, as in the documents.
func (t *turn) remove(timing Timing) {
	t.live = slices.DeleteFunc(t.live, func(x entry) bool { return x.hook.Timing == timing })
}

// placed returns the hook messages of a request of n host messages, in
// the order Insert places them. Persistent messages of earlier turns go
// just before the message that opened this turn: they are history.
func (e *Engine) placed(n int, s *session, t *turn, once []entry) []Insertion {
	var all []entry
	for _, list := range [][]entry{s.kept, t.live} {
		for i := range list {
			x := &list[i]
			if x.turn == t.key && x.at == pending {
				x.at = n
			}
			y := *x
			if y.turn != t.key {
				y.at = max(t.start-1, 0)
			}
			all = append(all, y)
		}
	}
	all = append(all, once...)
	for i := range all {
		all[i].at = min(all[i].at, n) // the host's list got shorter
	}
	slices.SortFunc(all, func(a, b entry) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq)) })
	ins := make([]Insertion, len(all))
	for i, x := range all {
		ins[i] = Insertion{At: x.at, Role: x.hook.Role, Content: x.hook.Content}
	}
	return ins
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
