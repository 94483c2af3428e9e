package runtime

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"

	"github.com/hookwire/hookwire/core/protocol"
)

// helloOf returns the params of the hook.hello a hook process received.
func helloOf(t *testing.T, record string) protocol.HelloParams {
	t.Helper()
	var msg struct {
		Method string               `json:"method"`
		Params protocol.HelloParams `json:"params"`
	}
	if err := protocol.Unmarshal([]byte(testbin.Lines(t, record)[0]), &msg); err != nil || msg.Method != protocol.MethodHello {
		t.Fatalf("first line received: %v, %+v", err, msg)
	}
	return msg.Params
}

func TestHelloAnnouncesTheExtensionsTheRuntimeApplies(t *testing.T) {
	all := []string{protocol.ExtApproveToolAbstain, protocol.ExtApproveToolArguments, protocol.ExtRuntimeEventSession, protocol.ExtResultContext, protocol.ExtResultMessage}
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"by default", Options{}, all},
		{"without session events", Options{NoSessionEvents: true}, slices.Delete(slices.Clone(all), 2, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "received")
			tc.opts.StopTimeout = 300 * time.Millisecond
			r, err := New(Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
				"gate": proc(0, []string{"approve_tool"}, "-record", rec),
			}}}, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			closeAndCheck(t, r)
			if got := helloOf(t, rec).Extensions; !slices.Equal(got, tc.want) || !slices.Equal(r.Extensions(), tc.want) {
				t.Errorf("hello announced %q (Extensions() %q), want %q", got, r.Extensions(), tc.want)
			}
		})
	}
}

// approver is a process hook that answers every approve_tool with result.
func approver(priority int, result string, flags ...string) ProcessConfig {
	return proc(priority, []string{"approve_tool"}, append([]string{"-result", protocol.MethodApproveTool + "=" + result}, flags...)...)
}

const abstain = `{"approved":false,"abstain":true}`

func TestAnAbstentionLeavesTheCallToTheNextApprover(t *testing.T) {
	for _, tc := range []struct {
		next string
		want Decision
	}{
		{`{"approved":false,"reason":"not on weekends"}`, Decision{Action: protocol.ActionDenyTool, Hook: "second", Reason: "not on weekends"}},
		{`{"approved":true}`, Decision{Action: protocol.ActionContinue}},
	} {
		t.Run(tc.next, func(t *testing.T) {
			h := startRuntime(t, map[string]ProcessConfig{
				"first":  approver(1, abstain),
				"second": approver(2, tc.next),
			})
			d := h.ApproveTool(context.Background(), apprReq)
			same(t, d, tc.want)
			var asked []string
			for _, c := range h.calls.list {
				asked = append(asked, c.Hook)
				if c.Err != nil {
					t.Errorf("call to %s failed: %v", c.Hook, c.Err)
				}
			}
			if !slices.Equal(asked, []string{"first", "second"}) {
				t.Errorf("asked %v, want first then second", asked)
			}
			if res := h.calls.list[0].Result.(protocol.ApproveToolResult); !isTrue(res.Abstain) {
				t.Errorf("the record of the first call = %+v, want its abstention", res)
			}
		})
	}
}

func TestWhenEveryApproverAbstainsTheConfiguredDefaultDecides(t *testing.T) {
	for _, tc := range []struct {
		approval string
		want     Decision
	}{
		{"", Decision{Action: protocol.ActionDenyTool, ByDefault: true, Reason: "every approver abstained; hooks.defaults.approval is deny"}},
		{"deny", Decision{Action: protocol.ActionDenyTool, ByDefault: true, Reason: "every approver abstained; hooks.defaults.approval is deny"}},
		{"allow", Decision{Action: protocol.ActionContinue, ByDefault: true, Reason: "every approver abstained; hooks.defaults.approval is allow"}},
	} {
		t.Run("default "+tc.approval, func(t *testing.T) {
			r, err := New(Config{Hooks: HooksConfig{Enabled: true, Defaults: DefaultsConfig{Approval: tc.approval},
				Processes: map[string]ProcessConfig{"a": approver(1, abstain), "b": approver(2, abstain)},
			}}, Options{StopTimeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { closeAndCheck(t, r) })
			same(t, r.ApproveTool(context.Background(), apprReq), tc.want)
		})
	}
}

func TestOneApprovalAmongAbstentionsLetsTheCallRunWhateverTheDefault(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{
		"a": approver(1, abstain),
		"b": approver(2, `{"approved":true}`),
		"c": approver(3, abstain),
	})
	same(t, h.ApproveTool(context.Background(), apprReq), Decision{Action: protocol.ActionContinue})
}

func TestApprovedAndAbstainAtOnceIsAFailureUnderTheApprovalPolicy(t *testing.T) {
	contradiction := `{"approved":true,"abstain":true}`
	for _, tc := range []struct {
		policy string
		want   protocol.Action
	}{
		{"", protocol.ActionDenyTool},       // approval fails closed
		{"open", protocol.ActionDenyTool},   // skipped: the abstention after it leaves the default, deny
		{"closed", protocol.ActionDenyTool}, // stated
	} {
		t.Run("policy "+tc.policy, func(t *testing.T) {
			bad := approver(1, contradiction)
			if tc.policy != "" {
				bad.FailurePolicy = map[string]string{"approve_tool": tc.policy}
			}
			h := startRuntime(t, map[string]ProcessConfig{"bad": bad, "next": approver(2, abstain)})
			d := h.ApproveTool(context.Background(), apprReq)
			rec := h.calls.list[0]
			if rec.Err == nil || !strings.Contains(rec.Err.Error(), `"approved": true and "abstain": true`) || rec.Result != nil {
				t.Errorf("record of the contradiction = %+v", rec)
			}
			if d.Action != tc.want {
				t.Errorf("decision = %+v, want %s", d, tc.want)
			}
			if open := tc.policy == "open"; open != d.ByDefault || open != (len(h.calls.list) == 2) {
				t.Errorf("decision = %+v after %d calls: an open policy skips the hook and asks the next, a closed one denies at once", d, len(h.calls.list))
			}
			if tc.policy != "open" && (d.Hook != "bad" || !strings.Contains(d.Reason, "hook bad failed")) {
				t.Errorf("decision = %+v, want the failing hook named", d)
			}
		})
	}
}

func TestApprovedArgumentsReplaceTheCallsAndTheLastSetWins(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "third")
	h := startRuntime(t, map[string]ProcessConfig{
		"first":  approver(1, `{"approved":true,"arguments":{"text":"one"}}`),
		"second": approver(2, `{"approved":true,"arguments":{"text":"two"}}`),
		"third":  approver(3, `{"approved":true}`, "-record", rec),
		"fourth": approver(4, `{"approved":false,"abstain":true,"arguments":{"text":"ignored"}}`),
	})
	req := apprReq
	req.ToolKind, req.AffectedPaths = ptr(protocol.ToolReadOnly), []string{"/srv/notes.txt"}
	d := h.ApproveTool(context.Background(), req)
	if !d.Continue() || d.ByDefault || d.Arguments["text"] != "two" {
		t.Errorf("decision = %+v, want continue with the second approver's arguments", d)
	}
	if apprReq.Arguments["text"] != "hi" {
		t.Errorf("the caller's arguments changed: %v", apprReq.Arguments)
	}
	h.Close()
	var got struct {
		Params protocol.ApproveToolParams `json:"params"`
	}
	if err := protocol.Unmarshal([]byte(testbin.Lines(t, rec)[1]), &got); err != nil {
		t.Fatal(err)
	}
	p := got.Params
	if p.Arguments["text"] != "two" || p.ToolKind == nil || *p.ToolKind != protocol.ToolReadOnly || p.AffectedPaths != nil {
		t.Errorf("the third approver was asked about %+v: want the new arguments, the kind, and no affected_paths (unknown for new arguments)", p)
	}
}

func TestADenialAfterApprovalsWithArgumentsDenies(t *testing.T) {
	h := startRuntime(t, map[string]ProcessConfig{
		"rewrite": approver(1, `{"approved":true,"arguments":{"text":"x"}}`),
		"no":      approver(2, `{"approved":false,"reason":"no"}`),
	})
	same(t, h.ApproveTool(context.Background(), apprReq), Decision{Action: protocol.ActionDenyTool, Hook: "no", Reason: "no"})
}
