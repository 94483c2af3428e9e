package hookwire

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// hostRequests are the request and notification lines of the shared
// vectors that a host sends: every line of the PicoClaw capture, and the
// messages with the members that PicoClaw leaves out or adds.
func hostRequests(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "schema", "testdata", "valid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Message map[string]json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		var method string
		_ = json.Unmarshal(v.Message["method"], &method)
		if method == "" || method == "hook.hello" {
			continue
		}
		line, _ := json.Marshal(v.Message)
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = string(line)
	}
	for _, want := range []string{"capture.2.before_llm", "capture.7.runtime_event", "after_llm.params.tool_call_id_only", "after_tool.params.meta_tool_duration_only"} {
		if _, ok := out[want]; !ok {
			t.Fatalf("vector %s is missing", want)
		}
	}
	return out
}

func TestEveryMessageAHostSendsReachesItsHandler(t *testing.T) {
	for name, line := range hostRequests(t) {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var reached []string
			seen := func(m string) { mu.Lock(); reached = append(reached, m); mu.Unlock() }
			h := New("all")
			h.OnBeforeLLM(func(context.Context, BeforeLLMParams) (BeforeLLMResult, error) {
				seen("hook.before_llm")
				return Continue{}, nil
			})
			h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) {
				seen("hook.after_llm")
				return Continue{}, nil
			})
			h.OnBeforeTool(func(context.Context, BeforeToolParams) (BeforeToolResult, error) {
				seen("hook.before_tool")
				return Continue{}, nil
			})
			h.OnAfterTool(func(context.Context, AfterToolParams) (AfterToolResult, error) {
				seen("hook.after_tool")
				return Continue{}, nil
			})
			h.OnApproveTool(func(context.Context, ApproveToolParams) (ApproveToolResult, error) {
				seen("hook.approve_tool")
				return ApproveToolResult{Approved: true}, nil
			})
			h.OnEvent("*", func(context.Context, RuntimeEvent) { seen("event") })

			var m struct {
				ID     int64  `json:"id"`
				Method string `json:"method"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			p := servePipe(t, ctx, h)
			p.send(line)
			if m.ID != 0 {
				reply, r := p.next()
				if r.Error != nil {
					t.Fatalf("the hook answered %s", reply)
				}
			}
			p.end()
			want := m.Method
			if m.ID == 0 {
				want = "event"
			}
			if !slices.Equal(reached, []string{want}) {
				t.Errorf("handlers reached: %v, want [%s]", reached, want)
			}
		})
	}
}

func TestAnAfterLLMWhoseToolCallHasOnlyAnIDIsHandled(t *testing.T) {
	var got AfterLLMParams
	h := New("h")
	h.OnAfterLLM(func(_ context.Context, res AfterLLMParams) (AfterLLMResult, error) {
		got = res
		return Continue{}, nil
	})
	p := servePipe(t, ctx, h)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"hook.after_llm","params":{"meta":{"TurnID":"t1"},"model":"gpt-4o","response":{"content":"","tool_calls":[{"id":"call-1"}],"finish_reason":"tool_calls","reasoning":"","reasoning_details":null}}}`)
	line, r := p.next()
	if r.Error != nil || string(r.Result) != "{}" && !strings.Contains(string(r.Result), "continue") {
		t.Fatalf("got %s, want continue", line)
	}
	p.end()
	calls := got.Response.ToolCalls
	if len(calls) != 1 || *calls[0].ID != "call-1" || calls[0].Function != nil {
		t.Errorf("the handler saw %+v, want one call with id call-1 and no function (nil)", calls)
	}
}

func TestAPluginToolCalledWithNoArgumentsWhichAHostLeavesOutRunsWithNone(t *testing.T) {
	h := New("h")
	AddTool(h, "now", "the time", func(context.Context, struct{}) (ToolResult, error) { return Text("noon"), nil })
	out, err := h.Call(ctx, MethodBeforeTool, json.RawMessage(`{"tool":"now"}`))
	if err != nil || string(out) != `{"action":"respond","result":{"for_llm":"noon"}}` {
		t.Errorf("got %s, %v", out, err)
	}
}
