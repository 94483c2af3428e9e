// Package benchdata holds the sample objects of the core's benchmarks, so
// that each layer measures the same call.
package benchdata

import "github.com/hookwire/hookwire/core/protocol"

// BeforeTool is a before_tool request as an agent sends it: meta, context,
// a tool and one argument.
func BeforeTool() protocol.BeforeToolParams {
	s := func(v string) *string { return &v }
	one := 1
	return protocol.BeforeToolParams{
		Meta: &protocol.Meta{
			AgentID: s("agent-1"), TurnID: s("turn-1"), ParentTurnID: s(""),
			SessionKey: s("session-1"), Iteration: &one, Source: s("agent"),
		},
		Context: &protocol.TurnContext{Inbound: &protocol.InboundContext{
			Channel: s("cli"), ChatID: s("direct"), SenderID: s("user"),
		}},
		Tool:      "read_file",
		Arguments: map[string]any{"path": "notes/2026-05-01.md"},
		Channel:   s("cli"),
		ChatID:    s("direct"),
	}
}
