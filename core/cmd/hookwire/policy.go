package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookwire/hookwire/core/policy"
	sdk "github.com/hookwire/hookwire/sdk-go"
)

var policyCommand = command{
	name: "policy",
	args: "FILE | test FILE",
	summary: `Runs the rules of a policy FILE as a hook: a guard with no code, for every
host and every agent. Each rule is a condition in CEL over the tool call in
words every agent shares (kind, command and the programs it runs, path, url,
arguments) and what it does when it holds: deny, ask (leave it to the user),
allow, or rewrite the command, path, URL or pattern. The first rule that
holds decides. A fault in the file is refused when it loads, at
FILE:LINE:COL, and the hook does not start: the host's guard then fails
closed. "hookwire policy test FILE" runs the cases in the file's "tests" and
exits 1 if one fails. See docs/policy.md.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		return func(args []string, e env) int {
			testing := len(args) == 2 && args[0] == "test"
			if len(args) != 1 && !testing {
				return e.fail(exitUsage, "policy", errors.New("usage: hookwire policy FILE, or hookwire policy test FILE"))
			}
			p, err := policy.Load(args[len(args)-1])
			if err != nil {
				return e.fail(exitFail, "policy", err)
			}
			if testing {
				return testPolicy(p, e)
			}
			if err := serveHook(policyHook(p), e); err != nil {
				return e.fail(exitFail, "policy", err)
			}
			return exitOK
		}
	},
}

// testPolicy prints each case's outcome, then the count.
func testPolicy(p *policy.Policy, e env) int {
	results := p.Test()
	failed := 0
	for _, r := range results {
		if r.Failure != "" {
			failed++
			fmt.Fprintf(e.stdout, "FAIL %s (%s): %s\n", r.Case.Name, r.Case.At, r.Failure)
			continue
		}
		fmt.Fprintf(e.stdout, "ok   %s: %s\n", r.Case.Name, r.Decision.Effect)
	}
	fmt.Fprintf(e.stdout, "%s: %d of %d cases pass\n", p.File, len(results)-failed, len(results))
	if failed > 0 || len(results) == 0 {
		if len(results) == 0 {
			fmt.Fprintf(e.stderr, "hookwire policy test: %s has no \"tests\" to run\n", p.File)
		}
		return exitFail
	}
	return exitOK
}

// policyHook is the hook that asks the policy of each tool call: before
// the tool (deny, rewrite) and at its approval (deny, allow; ask and no
// rule leave it to the next approver, or the user).
func policyHook(p *policy.Policy) *sdk.Hook {
	h := sdk.New(strings.TrimSuffix(filepath.Base(p.File), filepath.Ext(p.File)))
	h.OnBeforeTool(func(_ context.Context, call sdk.BeforeToolParams) (sdk.BeforeToolResult, error) {
		d := p.Decide(call.Tool, call.Arguments, call.CanonicalTool())
		switch d.Effect {
		case policy.Deny:
			return sdk.DenyTool{Reason: d.Message}, nil
		case policy.Rewrite:
			modify, err := call.Rewrite(d.Rewrite)
			if err != nil {
				// A rewrite the tool cannot take: the call does not run as it came.
				return sdk.DenyTool{Reason: fmt.Sprintf("the policy's %s (%s) rewrites this call, which it cannot: %v", d.Rule.Name, d.Rule.At, err)}, nil
			}
			return modify, nil
		}
		return sdk.Continue{}, nil
	})
	h.OnApproveTool(func(_ context.Context, call sdk.ApproveToolParams) (sdk.ApproveToolResult, error) {
		d := p.Decide(call.Tool, call.Arguments, call.CanonicalTool())
		switch d.Effect {
		case policy.Deny:
			return sdk.ApproveToolResult{Reason: &d.Message}, nil
		case policy.Allow:
			return sdk.ApproveToolResult{Approved: true}, nil
		}
		return sdk.ApproveToolResult{Abstain: sdk.Ptr(true)}, nil
	})
	return h
}
