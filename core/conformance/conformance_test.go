package conformance_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/schema"
	"github.com/hookwire/hookwire/core/wire"
)

func run(t *testing.T, fault string, opts conformance.Options) *conformance.Report {
	t.Helper()
	argv := []string{hookBin}
	if fault != "" {
		argv = append(argv, "-fault", fault)
	}
	report, err := conformance.Run(context.Background(), wire.Command{Argv: argv}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func text(r *conformance.Report) string {
	var b strings.Builder
	r.WriteText(&b)
	return b.String()
}

func TestACorrectHookPassesEveryCheck(t *testing.T) {
	r := run(t, "", conformance.Options{})
	if !r.OK() {
		t.Fatalf("not every check passed:\n%s", text(r))
	}
	var names []string
	for _, c := range r.Checks {
		names = append(names, c.Check)
	}
	want := []string{"handshake", "replies-valid", "actions-allowed", "missing-members", "notifications-silent", "unknown-method",
		"malformed-line", "concurrent-50", "stdout-clean", "exit-on-eof"}
	if !slices.Equal(names, want) {
		t.Errorf("checks reported: %v, want %v", names, want)
	}
	if r.Name != "fixture" || !slices.Equal(r.Modes, []protocol.Mode{"observe", "llm", "tool", "approve"}) {
		t.Errorf("name %q, modes %v: want the ones the fixture declares", r.Name, r.Modes)
	}
	if got := r.Result(conformance.ActionsAllowed).Reason; got != "before_llm: continue, after_llm: continue, before_tool: continue, after_tool: continue, approve_tool: approved" {
		t.Errorf("actions-allowed says %q: want every method of every mode, and its answer", got)
	}
}

// Each fault of the fixture fails the checks named for it, and only those.
func TestEachBrokenHookFailsTheCheckOfItsFault(t *testing.T) {
	for _, tc := range []struct {
		fault  string
		checks []string
		reason string
	}{
		// The four broken hooks.
		{"stdout", []string{conformance.StdoutClean}, `lines on stdout are not JSON-RPC messages, the first: "handling hook.hello"`},
		{"silent", []string{conformance.Handshake}, "hook.hello got no answer: no reply within 1s"},
		{"wrong-id", []string{conformance.Concurrent50}, "ids answered more than once: "},
		{"exit-on-bad", []string{conformance.MalformedLine}, `the hook exited with status 1 (last stderr line: "fatal: bad line:`},
		// One for each other check.
		{"no-reason", []string{conformance.RepliesValid}, "the reply to hook.before_tool (id 4): /result/reason: required member reason is missing"},
		{"error", []string{conformance.ActionsAllowed, conformance.MissingMembers}, "hook.before_tool was answered with error -32000: handler failed"},
		{"needs-args", []string{conformance.MissingMembers}, "hook.before_tool was answered with error -32000: handler failed: KeyError: 'arguments'"},
		{"echo", []string{conformance.NotificationsSilent}, `3 notifications got 3 replies, the first: {"error":{"code":-32601,`},
		{"unknown-ok", []string{conformance.UnknownMethod}, "was answered with a result, not error -32601"},
		{"linger", []string{conformance.ExitOnEOF}, "the hook was still running 2s after its stdin was closed"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			r := run(t, tc.fault, conformance.Options{Timeout: time.Second})
			if got := r.Failed(); !slices.Equal(got, tc.checks) {
				t.Fatalf("failed checks: %v, want only %v\n%s", got, tc.checks, text(r))
			}
			for _, check := range tc.checks {
				if got := r.Result(check).Reason; !strings.Contains(got, tc.reason) {
					t.Errorf("%s says %q, want it to say %q", check, got, tc.reason)
				}
			}
		})
	}
}

func TestAfterAFailedHandshakeTheOtherChecksAreSkipped(t *testing.T) {
	r := run(t, "silent", conformance.Options{Timeout: 500 * time.Millisecond})
	for _, c := range r.Checks[1:] {
		if c.Status != conformance.Skip || c.Reason != "not made: the handshake failed" {
			t.Errorf("%s: %s %q, want it skipped because the handshake failed", c.Check, c.Status, c.Reason)
		}
	}
	if r.OK() {
		t.Error("a report with a failed check is OK")
	}
}

func TestAHookThatCannotStartFailsTheHandshake(t *testing.T) {
	r, err := conformance.Run(context.Background(), wire.Command{Argv: []string{filepath.Join(t.TempDir(), "missing")}}, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Result(conformance.Handshake); c.Status != conformance.Fail || !strings.Contains(c.Reason, "the hook did not start") {
		t.Errorf("handshake: %s %q, want a failure saying the hook did not start", c.Status, c.Reason)
	}
}

// The hook is asked the methods of the modes it declares, among those offered.
func TestOnlyTheMethodsOfTheOfferedAndDeclaredModesAreAsked(t *testing.T) {
	r, err := conformance.Run(context.Background(),
		wire.Command{Argv: []string{hookBin}, Modes: []protocol.Mode{protocol.ModeTool}}, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Result(conformance.ActionsAllowed).Reason; got != "before_tool: continue, after_tool: continue" {
		t.Errorf("actions-allowed says %q: want only the methods of mode tool", got)
	}
	if got := r.Result(conformance.Concurrent50).Reason; !strings.Contains(got, "(hook.before_tool, hook.after_tool)") {
		t.Errorf("concurrent-50 says %q: want the methods of mode tool", got)
	}
}

func TestTheHooksStderrIsPassedOn(t *testing.T) {
	var stderr strings.Builder
	w := &syncWriter{b: &stderr}
	run(t, "exit-on-bad", conformance.Options{Stderr: w})
	w.mu.Lock()
	defer w.mu.Unlock()
	if !strings.Contains(stderr.String(), "fatal: bad line:") {
		t.Errorf("stderr: %q, want the hook's own", stderr.String())
	}
}

func TestTheReportEncodesAsJSON(t *testing.T) {
	b, err := json.Marshal(run(t, "stdout", conformance.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Command []string
		Name    string
		Modes   []string
		Checks  []struct{ Check, Status, Reason string }
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Command[0] != hookBin || back.Name != "fixture" || len(back.Checks) != len(conformance.Checks) ||
		back.Checks[8].Check != "stdout-clean" || back.Checks[8].Status != "fail" {
		t.Errorf("report as JSON: %s", b)
	}
}

// What the suite sends is the protocol, apart from what it gets wrong on
// purpose: every request and notification validates, and every method is sent.
func TestEveryMessageOfTheSuiteValidates(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	r, err := conformance.Run(context.Background(), wire.Command{
		// The fixture behind a tee that keeps what it is sent.
		Argv: []string{"sh", "-c", `tee -a "$TRACE" | "$HOOK"`},
		Env:  map[string]string{"TRACE": trace, "HOOK": hookBin},
	}, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() {
		t.Fatalf("the fixture behind a pipe fails:\n%s", text(r))
	}
	v, err := schema.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{}
	malformed := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var msg struct{ Method string }
		if json.Unmarshal([]byte(line), &msg) != nil {
			malformed++
			continue
		}
		sent[msg.Method]++
		if strings.HasPrefix(msg.Method, "hook.conformance_") {
			continue // unknown on purpose
		}
		if err := v.Validate([]byte(line), ""); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	for _, m := range protocol.Methods {
		if sent[m.Name] == 0 {
			t.Errorf("%s was never sent", m.Name)
		}
	}
	if malformed != 2 || sent["hook.conformance_no_such_method"] != 1 || sent["hook.conformance_no_such_notification"] != 1 {
		t.Errorf("%d malformed lines, methods sent: %v", malformed, sent)
	}
}
