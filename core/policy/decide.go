package policy

import (
	"fmt"

	sdk "github.com/hookwire/hookwire/sdk-go"
)

// A Decision is what a policy makes of a call.
type Decision struct {
	// Effect is deny, ask, allow or rewrite; continue when no rule held.
	Effect string
	// Rule is the rule that decided; nil for continue.
	Rule    *Rule
	Message string
	// Rewrite holds the new members of a rewrite.
	Rewrite sdk.CanonicalTool
}

// Decide runs the rules on a call, in order, until one holds. A rule that
// fails on the call (a key it lacks, a cost over the limit) denies it.
func (p *Policy) Decide(tool string, arguments map[string]any, use sdk.CanonicalTool) Decision {
	in := vars(tool, arguments, use)
	for _, r := range p.Rules {
		held, err := r.when.eval(in)
		if err != nil {
			return r.failed(err)
		}
		if held != true {
			continue
		}
		msg, err := r.message.render(in)
		if err != nil {
			return r.failed(err)
		}
		d := Decision{Effect: r.Effect, Rule: r, Message: msg}
		for member, prg := range r.rewrite {
			v, err := prg.eval(in)
			if err != nil {
				return r.failed(err)
			}
			s, ok := v.(string)
			if !ok {
				return r.failed(fmt.Errorf("%s gave %T, not a string", member, v))
			}
			switch member {
			case "command":
				d.Rewrite.Command = &s
			case "path":
				d.Rewrite.Path = &s
			case "url":
				d.Rewrite.URL = &s
			case "pattern":
				d.Rewrite.Pattern = &s
			}
		}
		return d
	}
	return Decision{Effect: Continue}
}

// failed is the denial of a call the rule could not judge.
func (r *Rule) failed(err error) Decision {
	return Decision{Effect: Deny, Rule: r, Message: fmt.Sprintf("the policy's %s (%s) could not judge this call, which is denied: %v", r.Name, r.At, err)}
}

// eval runs the expression on a call's variables.
func (p *celProgram) eval(in map[string]any) (any, error) {
	out, _, err := p.prg.Eval(in)
	if err != nil {
		return nil, err
	}
	return out.Value(), nil
}

// Result is what a test case came to.
type Result struct {
	Case     Case
	Decision Decision
	// Failure says how the decision differs from the case's expectation;
	// "" when it passed.
	Failure string
}

// Test runs each test case of the policy.
func (p *Policy) Test() []Result {
	var out []Result
	for _, c := range p.Tests {
		call := sdk.BeforeToolParams{Tool: c.Tool, Arguments: c.Arguments}
		d := p.Decide(c.Tool, c.Arguments, call.CanonicalTool())
		res := Result{Case: c, Decision: d}
		by := "no rule"
		if d.Rule != nil {
			by = d.Rule.Name
		}
		switch {
		case d.Effect != c.Expect:
			res.Failure = fmt.Sprintf("%s by %s, where %s was expected", d.Effect, by, c.Expect)
		case c.Rule != "" && by != c.Rule:
			res.Failure = fmt.Sprintf("%s by %s, where %s was to decide", d.Effect, by, c.Rule)
		}
		for member, want := range c.Becomes {
			if got := rewritten(d.Rewrite, member); res.Failure == "" && (got == nil || *got != want) {
				res.Failure = fmt.Sprintf("the %s becomes %s, where %q was expected", member, quoted(got), want)
			}
		}
		out = append(out, res)
	}
	return out
}

func rewritten(c sdk.CanonicalTool, member string) *string {
	return map[string]*string{"command": c.Command, "path": c.Path, "url": c.URL, "pattern": c.Pattern}[member]
}

func quoted(s *string) string {
	if s == nil {
		return "unchanged"
	}
	return fmt.Sprintf("%q", *s)
}
