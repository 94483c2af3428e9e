// Package conformance drives a hook process through the protocol and
// reports, check by check, whether it speaks it correctly. It works with
// any hook command, written in any language: it speaks only the wire
// (the process's stdin, stdout and stderr), as a host does.
//
// Run starts the hook twice. The first process goes through the handshake,
// one request for each method its modes receive, notifications, an unknown
// method and 50 concurrent requests, then has its stdin closed. The second
// process gets malformed lines, so that a hook which dies of one does not
// spoil the other checks. Every line both processes write is kept and
// judged at the end.
//
// The checks, in report order:
//
//	handshake             hook.hello is answered with ok: true
//	replies-valid         every reply validates against the protocol's schema
//	actions-allowed       each method the hook's modes receive is answered with a result its method allows
//	notifications-silent  observe notifications (and an unknown one) get no reply
//	unknown-method        an unknown method gets error -32601, and the hook keeps going
//	malformed-line        a line that is not JSON does not stop the hook
//	concurrent-50         50 requests sent at once are all answered, each with its own id
//	stdout-clean          nothing but JSON-RPC messages on stdout
//	exit-on-eof           the hook exits, with status 0, within 2 s of its stdin closing
//
// When the handshake fails, no other check can be made: they are skipped.
package conformance

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/wire"
)

// Check names, stable: scripts may match on them.
const (
	Handshake           = "handshake"
	RepliesValid        = "replies-valid"
	ActionsAllowed      = "actions-allowed"
	MissingMembers      = "missing-members"
	NotificationsSilent = "notifications-silent"
	UnknownMethod       = "unknown-method"
	MalformedLine       = "malformed-line"
	Concurrent50        = "concurrent-50"
	StdoutClean         = "stdout-clean"
	ExitOnEOF           = "exit-on-eof"
)

// Checks lists every check, in report order, with what it asks of a hook.
var Checks = []struct{ Name, Rule string }{
	{Handshake, "hook.hello is answered with ok: true"},
	{RepliesValid, "every reply validates against the protocol's schema"},
	{ActionsAllowed, "each method the hook's modes receive is answered with a result its method allows"},
	{MissingMembers, "so is each method whose params carry only their required members, as hosts leave out what is empty"},
	{NotificationsSilent, "observe notifications (and an unknown one) get no reply"},
	{UnknownMethod, "an unknown method gets error -32601, and the hook keeps going"},
	{MalformedLine, "a line that is not JSON does not stop the hook"},
	{Concurrent50, "50 requests sent at once are all answered, each with its own id"},
	{StdoutClean, "nothing but JSON-RPC messages on stdout"},
	{ExitOnEOF, "the hook exits, with status 0, within 2 s of its stdin closing"},
}

// Defaults.
const (
	// DefaultTimeout bounds each reply, as a host's interceptor deadline does.
	DefaultTimeout = 5 * time.Second
	// ExitTimeout is how long a hook may take to exit once its stdin is closed.
	ExitTimeout = 2 * time.Second
	// DefaultMaxOutput bounds what a hook may write on stdout in one run,
	// as wire.DefaultMaxLineSize bounds one line: the suite keeps it all.
	DefaultMaxOutput = 64 << 20
)

// Options tune a run. The zero value is ready to use.
type Options struct {
	// Timeout bounds each reply (and the 50 concurrent ones together).
	// Zero means DefaultTimeout.
	Timeout time.Duration
	// Stderr receives what the hook writes on its stderr; nil discards it.
	Stderr io.Writer
	// Host, when it is a host other than host.Reference (host.PicoClaw),
	// adds warnings for what that
	// host would discard of the hook's replies (Report.Warnings). A host
	// that reads the hello reply its own way (host.ReadHello) passes the
	// handshake of a reply it takes, with a warning when the protocol
	// refuses it.
	Host *host.Host
	// FailurePolicy, "open" or "closed", is the failure policy of a host's
	// guard stages (a tool call before it runs and at its approval): when
	// the hook fails one of those requests, a warning (Report.Warnings) says
	// what a host under that policy does with the tool call it guards.
	// Empty: no warning.
	FailurePolicy string
	// MaxOutput bounds the bytes read from the hook's stdout in each of
	// its runs; past it the run's checks fail. Zero means DefaultMaxOutput.
	MaxOutput int64
}

// Status is the outcome of one check.
type Status string

// Statuses.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip" // the check could not be made: the handshake failed
)

// Result is the outcome of one check and why.
type Result struct {
	Check  string `json:"check"`
	Status Status `json:"status"`
	Reason string `json:"reason"`
	// Stderr, for a failed check, are the last lines the hook wrote on
	// stderr while the check was made (at most StderrShown; StderrLeftOut
	// counts those before them): a handler's traceback, most often.
	Stderr        []string `json:"stderr,omitempty"`
	StderrLeftOut int      `json:"stderr_left_out,omitempty"`
}

// StderrShown is how many of the hook's stderr lines a failed check keeps:
// enough for a traceback through a few frames of an SDK.
const StderrShown = 30

// Report is the outcome of a run.
type Report struct {
	// Command is the hook's argv.
	Command []string `json:"command"`
	// Name is the name the hook gave itself in hook.hello.
	Name string `json:"name,omitempty"`
	// Modes are the modes whose methods the hook was asked.
	Modes []protocol.Mode `json:"modes"`
	// Checks are the results, one per check, in the order of Checks.
	Checks []Result `json:"checks"`
	// Warnings say what the host of Options.Host would discard of the
	// hook's replies; they fail no check.
	Warnings []string `json:"warnings,omitempty"`
}

// OK is true when no check failed or was skipped.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if c.Status != Pass {
			return false
		}
	}
	return true
}

// Result is the result of the named check.
func (r *Report) Result(check string) Result {
	for _, c := range r.Checks {
		if c.Check == check {
			return c
		}
	}
	return Result{Check: check}
}

// Failed lists the names of the checks that failed.
func (r *Report) Failed() []string {
	var out []string
	for _, c := range r.Checks {
		if c.Status == Fail {
			out = append(out, c.Check)
		}
	}
	return out
}

// WriteText writes the report for people: one line per check, then a total.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "conformance of %s\n", strings.Join(r.Command, " "))
	count := map[Status]int{}
	for _, c := range r.Checks {
		count[c.Status]++
		fmt.Fprintf(&b, "  %-4s  %-20s  %s\n", strings.ToUpper(string(c.Status)), c.Check, c.Reason)
		if len(c.Stderr) > 0 {
			more := ""
			if c.StderrLeftOut > 0 {
				more = fmt.Sprintf(" (its last %d lines; -v shows every one)", len(c.Stderr))
			}
			fmt.Fprintf(&b, "        the hook's stderr during this check%s:\n", more)
			for _, line := range c.Stderr {
				fmt.Fprintf(&b, "        | %s\n", line)
			}
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  WARN  %s\n", w)
	}
	fmt.Fprintf(&b, "%d checks: %d passed, %d failed", len(r.Checks), count[Pass], count[Fail])
	if count[Skip] > 0 {
		fmt.Fprintf(&b, ", %d skipped", count[Skip])
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Run drives the hook cmd through every check. cmd.Modes are the modes
// offered in hook.hello (all four when empty); the hook is asked the
// methods of the modes it declares in its answer (the "modes" member that
// the hookwire SDKs add), or of every mode offered when it declares none.
// cmd.Name is the name sent in hook.hello ("conformance" when empty).
//
// Run fails only when ctx ends; everything the hook does wrong is in the
// report.
func Run(ctx context.Context, cmd wire.Command, opts Options) (*Report, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if cmd.Name == "" {
		cmd.Name = "conformance"
	}
	if len(cmd.Modes) == 0 {
		cmd.Modes = []protocol.Mode{protocol.ModeObserve, protocol.ModeLLM, protocol.ModeTool, protocol.ModeApprove}
	}
	s := &suite{cmd: cmd, opts: opts, results: map[string]Result{}, stderr: map[string][]string{}, minimal: map[uint64]bool{}, guardFaults: map[string]string{}}
	s.run(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report := &Report{Command: cmd.Argv, Name: s.name, Modes: s.modes, Warnings: append(s.hostWarnings(), s.policyWarnings()...)}
	if report.Modes == nil {
		report.Modes = []protocol.Mode{}
	}
	for _, c := range Checks {
		r, ok := s.results[c.Name]
		if !ok {
			r = Result{Check: c.Name, Status: Skip, Reason: "not made: " + s.skipReason}
		}
		if lines := s.stderr[c.Name]; len(lines) > 0 {
			r.StderrLeftOut = max(len(lines)-StderrShown, 0)
			r.Stderr = lines[r.StderrLeftOut:]
		}
		report.Checks = append(report.Checks, r)
	}
	return report, nil
}
