package runtime

import (
	"context"
	"testing"

	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/protocol"
)

// seenApproval keeps the approval request it was asked.
type seenApproval struct{ got *protocol.ApproveToolParams }

func (s seenApproval) ApproveTool(_ context.Context, req protocol.ApproveToolParams) (protocol.ApproveToolResult, error) {
	*s.got = req
	return protocol.ApproveToolResult{Approved: true}, nil
}

// A hook of a runtime that behaves as a host is asked with the members
// that host writes (host.Writes): under PicoClaw, an approval request
// carries no tool_kind, affected_paths, channel or chat_id (hookwire's
// extensions, and members PicoClaw's approval type lacks); under the
// reference host it carries them all.
func TestAHookIsAskedWithTheMembersItsHostWrites(t *testing.T) {
	req := protocol.ApproveToolParams{Tool: "write_file", Arguments: map[string]any{"path": "a"}, ToolKind: ptr(protocol.ToolKind("write")),
		AffectedPaths: []string{"a"}, Channel: ptr("cli"), ChatID: ptr("chat-1")}
	for _, c := range []struct {
		host *host.Host
		want func(protocol.ApproveToolParams) bool
	}{
		{host.PicoClaw, func(p protocol.ApproveToolParams) bool {
			return p.Tool == "write_file" && p.Arguments["path"] == "a" && p.ToolKind == nil && p.AffectedPaths == nil && p.Channel == nil && p.ChatID == nil
		}},
		{host.Reference, func(p protocol.ApproveToolParams) bool {
			return p.ToolKind != nil && p.AffectedPaths != nil && p.Channel != nil && p.ChatID != nil
		}},
	} {
		var got protocol.ApproveToolParams
		r, err := New(Config{}, Options{Host: c.host})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Use(InProcess{Name: "a", Hook: seenApproval{&got}}); err != nil {
			t.Fatal(err)
		}
		if err := r.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		r.ApproveTool(context.Background(), req)
		r.Close()
		if !c.want(got) {
			t.Errorf("under %s the approver was asked %+v", c.host, got)
		}
	}
	// An empty object or list the host's types leave out is left out.
	if got := written(host.PicoClaw.Writes(protocol.MethodBeforeLLM), protocol.BeforeLLMParams{Model: "m", Options: map[string]any{}}); got.Options != nil {
		t.Errorf("empty options written as %v", got.Options)
	}
}
