package main

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// picoClawCapture is seven messages as PicoClaw's host code wrote them on a
// hook's stdin (../shared/wire beside the repository, as CI has it).
const picoClawCapture = "../../../../shared/wire/picoclaw-host-capture.jsonl"

// readLines reads a file of JSON lines, each a message.
func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v: %s", path, err, sc.Bytes())
		}
		out = append(out, m)
	}
	return out
}

// keys are the member names of an object, sorted; nil for what is not one.
func keys(v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

// firstOf is the params of the first message of each method.
func firstOf(msgs []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, m := range msgs {
		method, _ := m["method"].(string)
		if _, seen := out[method]; !seen {
			out[method], _ = m["params"].(map[string]any)
		}
	}
	return out
}

// runRecorded plays a scenario that calls echo_text once, then answers,
// under host, with the fixture hook at every stage and observing every
// event; it returns each line the hook was sent.
func runRecorded(t *testing.T, host string) []map[string]any {
	t.Helper()
	dir := t.TempDir()
	record := filepath.Join(dir, "sent.jsonl")
	hooks := writeJSON(t, dir, "hooks.json", map[string]any{"hooks": map[string]any{"processes": map[string]any{
		"h": map[string]any{"enabled": true, "command": []string{fixtureBin, "-record", record},
			"intercept": []string{"before_llm", "before_tool", "approve_tool"}, "observe": []string{"all"}},
	}}})
	call := map[string]any{"tool_calls": []any{map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hi"}}}}
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "hi", "replies": []any{call, map[string]any{"content": "done"}}})
	if code, out, errOut := hookwire(t, "", "run", "--host", host, "--hooks", hooks, scenario); code != exitOK {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	return readLines(t, record)
}

// What `hookwire run --host picoclaw` sends a hook has the shape of what
// PicoClaw's host writes: per method, the members of the params, of meta,
// of the LLM's answer and of the tool result are those of PicoClaw's
// capture. The capture's requests were built by hand and leave out
// context where PicoClaw's loop sends it (pipeline_llm.go,
// pipeline_execute.go fill it on every call), and its event has no attrs,
// which PicoClaw's loop gives every event of a turn (agent_event.go).
func TestRunUnderPicoClawSendsTheShapeOfPicoClawsWire(t *testing.T) {
	want := firstOf(readLines(t, picoClawCapture))
	got := firstOf(runRecorded(t, "picoclaw"))
	without := func(ks []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(ks), func(k string) bool { return slices.Contains(drop, k) })
	}
	for method, w := range want {
		g, ok := got[method]
		if !ok {
			t.Errorf("%s: never sent", method)
			continue
		}
		if a, b := without(keys(g), "context", "attrs"), without(keys(w), "context"); !slices.Equal(a, b) {
			t.Errorf("%s: members %q, PicoClaw's %q", method, a, b)
		}
		for _, member := range []string{"meta", "result", "response", "correlation"} {
			if _, ok := w[member]; ok && !slices.Equal(keys(g[member]), keys(w[member])) && member != "correlation" {
				t.Errorf("%s: %s has %q, PicoClaw's %q", method, member, keys(g[member]), keys(w[member]))
			}
		}
	}
	if ctx := got["hook.approve_tool"]["context"]; ctx == nil {
		t.Errorf("approve_tool: no context, which PicoClaw's loop sends")
	}
	if m := got["hook.before_tool"]["meta"].(map[string]any); m["TracePath"] != "turn.tool.before" || m["Source"] != "runTurn" {
		t.Errorf("before_tool meta %v, want PicoClaw's trace path and source", m)
	}
	if opts := keys(got["hook.before_llm"]["options"]); !slices.Equal(opts, []string{"max_tokens", "prompt_cache_key", "temperature"}) {
		t.Errorf("before_llm options %q, want PicoClaw's", opts)
	}
}

// PicoClaw's loop ends a turn "completed", and writes every event's
// correlation, its trace_id the event's trace path, and the payload
// members of its types (event_payloads.go, agent_event.go).
func TestRunUnderPicoClawRaisesEventsAsPicoClawsLoopDoes(t *testing.T) {
	var ends []map[string]any
	byKind := map[string]map[string]any{}
	for _, m := range runRecorded(t, "picoclaw") {
		p, _ := m["params"].(map[string]any)
		if m["method"] != "hook.runtime_event" {
			continue
		}
		kind, _ := p["kind"].(string)
		byKind[kind] = p
		if kind == "agent.turn.end" {
			ends = append(ends, p)
		}
		if _, ok := p["correlation"].(map[string]any); !ok {
			t.Errorf("%s: correlation %v, want an object", kind, p["correlation"])
		}
	}
	if len(ends) != 1 {
		t.Fatalf("%d turn ends", len(ends))
	}
	end := ends[0]
	if payload := end["payload"].(map[string]any); payload["Status"] != "completed" || payload["FinalContent"] != "done" || len(payload) != 13 {
		t.Errorf("turn end payload %v, want PicoClaw's 13 members, Status completed", payload)
	}
	if c := end["correlation"].(map[string]any); c["trace_id"] != "turn.end" {
		t.Errorf("turn end correlation %v", c)
	}
	if p := keys(byKind["agent.tool.exec_start"]["payload"]); !slices.Equal(p, []string{"Arguments", "Tool"}) {
		t.Errorf("exec_start payload %q, want PicoClaw's", p)
	}
	if p := keys(byKind["agent.llm.response"]["payload"]); !slices.Equal(p, []string{"ContentLen", "HasReasoning", "ToolCalls"}) {
		t.Errorf("llm.response payload %q, want PicoClaw's", p)
	}
}
