package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// This file is the chain engine, the same for every stage: runChain asks
// the hooks of a stage in order, invoke makes and records each call under
// its deadline and policy, callHook asks the hook, in-process or process.
// What a stage does with each answer is its row (stages.go), whose
// functions are the outcome rules (decision.go).

// stage is what the chain of one stage does differently from the others:
// I is the interface an in-process hook implements to be asked, P the
// params, R the result.
type stage[I, P, R any] struct {
	Stage
	// ask asks an in-process hook.
	ask func(I, context.Context, P) (R, error)
	// check, when set, refuses an answer the stage does not accept from that
	// hook: the call fails, under the hook's policy.
	check func(r *Runtime, h *hook, params P, res R) error
	// origin, when set, points at the fields of P that say where a call
	// comes from, for a modify to carry them over (see keepOrigin).
	origin func(*P) origin
	// fold folds one hook's answer into the run; a decision it returns
	// ends the chain.
	fold func(r *Runtime, h *hook, c chainRun[P], res R) (chainRun[P], *Decision)
	// finish, when set, decides once every hook has had its say;
	// otherwise the run's decision stands.
	finish func(r *Runtime, c chainRun[P]) Decision
	// failure is the action of a failed call under a closed policy; empty
	// means abort_turn.
	failure protocol.Action
}

// anyStage is a stage's chain, whatever its types.
type anyStage interface {
	name() Stage
	// servedBy reports whether an in-process hook is asked at the stage.
	servedBy(impl any) bool
}

func (st *stage[I, P, R]) name() Stage { return st.Stage }

func (st *stage[I, P, R]) servedBy(impl any) bool {
	_, ok := impl.(I)
	return ok
}

// chainRun is one run of a chain: the params as the hooks have left them,
// and what the approvers have said so far.
type chainRun[P any] struct {
	params              P
	decision            Decision // the decision when no hook ends the chain
	approved, abstained bool
	origin              func(*P) origin
	// context and messages are the remarks of the hooks asked so far.
	context, messages []string
}

// decided is the chain's outcome: its params, and d with the hooks skipped
// on the way and what the hooks remarked.
func (c chainRun[P]) decided(d Decision, skipped []string) (P, Decision) {
	d.Skipped, d.Context, d.Messages = skipped, c.context, c.messages
	return c.params, d
}

// keepRemarks keeps what a hook's answer says besides its action.
func (c *chainRun[P]) keepRemarks(h *hook, answer any) {
	said, ok := answer.(interface{ HookRemarks() protocol.Remarks })
	if !ok {
		return
	}
	r := said.HookRemarks()
	if r.Context != nil && *r.Context != "" {
		c.context = append(c.context, *r.Context)
	}
	if r.Message != nil && *r.Message != "" {
		c.messages = append(c.messages, h.name+": "+*r.Message)
	}
}

// modify replaces the params with those of a hook's modify, keeping where
// the call comes from (see keepOrigin).
func (c chainRun[P]) modify(r *Runtime, next P) chainRun[P] {
	c.params = keepOrigin(r, c.origin, next, c.params)
	return c
}

// runChain asks the hooks of a stage, in order, and decides.
func runChain[I, P, R any](r *Runtime, ctx context.Context, st *stage[I, P, R], params P) (P, Decision) {
	if r != nil && r.host().Calls != nil && !r.host().Calls(st.Stage.Method(), params) {
		return params, letThrough // a call this host never makes
	}
	params = asWritten(r, st.Stage.Method(), params)
	c := chainRun[P]{params: params, decision: letThrough, origin: st.origin}
	var skipped []string
	for _, h := range r.chain(st.Stage) {
		res, skip, stop := invoke(r, ctx, h, st, c.params)
		if stop != nil {
			return c.decided(*stop, skipped)
		}
		if skip != "" {
			skipped = append(skipped, skip)
			continue
		}
		if !r.host().NoExtensions { // a host without extensions ignores remarks
			c.keepRemarks(h, res)
		}
		var end *Decision
		if c, end = st.fold(r, h, c, res); end != nil {
			return c.decided(*end, skipped)
		}
	}
	if st.finish != nil {
		return c.decided(st.finish(r, c), skipped)
	}
	return c.decided(c.decision, skipped)
}

func (r *Runtime) chain(s Stage) []*hook {
	if r == nil {
		return nil
	}
	return r.chains[s]
}

// invoke makes one call to one hook under its deadline and records it. A
// failed call is logged; under a closed policy it returns the decision that
// ends the chain, under an open one skip says what went wrong and the hook
// is skipped.
func invoke[I, P, R any](r *Runtime, ctx context.Context, h *hook, st *stage[I, P, R], params P) (res R, skip string, stop *Decision) {
	s := st.Stage
	if gone := gaveUp(ctx); gone != nil {
		return res, "", gone
	}
	d := r.deadline(h, s)
	start := time.Now()
	res, notes, err := callHook(r, ctx, start.Add(d), h, st, params)
	took := time.Since(start)
	switch {
	case err == nil && any(res) == nil:
		err = errors.New("the hook returned no result")
	case err == context.DeadlineExceeded && ctx.Err() == nil:
		// Worded here, not up front, so that the path of a call that
		// succeeds makes no allocation it does not need.
		err = wire.NoReply(d)
	}
	rec := CallRecord{Hook: h.name, Method: s.Method(), Params: params, Duration: took}
	gone := gaveUp(ctx)
	switch {
	case err != nil && gone != nil:
		// The caller gave up, the hook did not fail: no policy applies, and
		// above all not an open one, which would let the agent go on
		// without this hook's word.
		rec.Err = fmt.Errorf("%s: %w", gone.Reason, err)
	case err != nil:
		rec.Err = err
		rec.Policy = h.policyFor(s)
	default:
		rec.Result = res
		if acts := r.host().Acts; acts != nil {
			read, more := acts(st.Method(), params, res)
			res, notes = read.(R), append(notes, more...)
		}
		rec.Discarded = notes
	}
	if r.opts.OnCall != nil {
		r.opts.OnCall(rec)
	}
	if err == nil {
		return res, "", nil
	}
	if gone != nil {
		return res, "", gone
	}
	r.logger().Warn("hook call failed", "hook", h.name, "method", s.Method(), "error", err, "policy", "fail "+string(rec.Policy))
	why := fmt.Sprintf("hook %s failed: %v", h.name, err)
	if rec.Policy == FailOpen {
		return res, why, nil
	}
	return res, "", &Decision{Action: cmp.Or(st.failure, protocol.ActionAbortTurn), Hook: h.name, Reason: why, Failed: true}
}

// callHook asks one hook by deadline: an in-process hook through the
// stage's interface method, behind guarded; a process hook through the
// caller chosen when it was mounted (callerFor), which reads its reply as
// the host does (notes say what the host made of it). The stage's check
// then refuses an answer it does not accept.
func callHook[I, P, R any](r *Runtime, ctx context.Context, deadline time.Time, h *hook, st *stage[I, P, R], params P) (res R, notes []string, err error) {
	if h.proc == nil {
		ctx, cancel := context.WithDeadline(ctx, deadline)
		res, err = guarded(ctx, func(ctx context.Context) (R, error) { return st.ask(h.impl.(I), ctx, params) })
		cancel()
	} else {
		var raw json.RawMessage
		// By pointer: the encoder would copy a value to the heap.
		if raw, notes, err = h.caller.call(ctx, deadline, st.Method(), &params); err == nil {
			res, err = decodeAs[R](st.Method(), raw)
		}
	}
	if err == nil && st.check != nil {
		err = st.check(r, h, params, res)
	}
	return res, notes, err
}

// gaveUp is the decision of a stage whose caller has given up (its context
// is done), or nil while the caller still waits.
func gaveUp(ctx context.Context) *Decision {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	return &Decision{Action: protocol.ActionAbortTurn, Canceled: true, Reason: "the caller gave up: " + context.Cause(ctx).Error()}
}

// deadline is how long a hook has to answer at a stage: its own timeout,
// or the configuration's default for interceptors or approvers.
func (r *Runtime) deadline(h *hook, s Stage) time.Duration {
	if h.timeout > 0 {
		return h.timeout
	}
	if s.Mode() == protocol.ModeApprove {
		return cmp.Or(ms(r.defaults.ApprovalTimeoutMS), DefaultApprovalTimeout)
	}
	return cmp.Or(ms(r.defaults.InterceptorTimeoutMS), DefaultInterceptorTimeout)
}

func (h *hook) policyFor(s Stage) Policy {
	if p, ok := h.policy[s]; ok {
		return p
	}
	return DefaultPolicy(s)
}
