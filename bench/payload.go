package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// payloads times hook.before_llm with message histories of each size, for
// hooks that continue and hooks that modify (add a tool), next to the
// floor of each mode (the Go loop that parses nothing) and to each
// language's own JSON parse and serialize of the same params.
func (b *bench) payloads() error {
	for _, size := range b.cfg.Payloads {
		req := llmRequest(size.Bytes)
		params, err := protocol.Marshal(req)
		if err != nil {
			return err
		}
		var cs []*contender
		var hooks []*hook
		for _, mode := range []string{modeContinue, modeModify} {
			hs := []*hook{b.hook("go", floor, mode)}
			for _, lang := range langs {
				hs = append(hs, b.hook(lang, raw, mode), b.hook(lang, sdk, mode))
			}
			for _, h := range hs {
				hooks = append(hooks, h)
				cs = append(cs, &contender{id: h.id, label: label(h.lang, h.kind), do: func() error {
					out, d := h.rt.BeforeLLM(b.ctx, req)
					if err := expect(d, protocol.ActionContinue); err != nil {
						return err
					}
					return sameButTool(req, out, h.mode == modeModify && h.kind != floor)
				}})
			}
		}
		fmt.Fprintf(b.progress, "  %s of history (params %s): %d contenders, %d calls each\n",
			humanBytes(int64(size.Bytes)), humanBytes(int64(len(params))), len(cs), size.Calls)
		b.measure(cs, 1, 1, size.Calls, 20)

		cost, err := b.jsonCost(params, size.Calls)
		if err != nil {
			return err
		}
		floors := map[string][]time.Duration{}
		for i, c := range cs {
			if hooks[i].kind == floor {
				floors[hooks[i].mode] = c.samples
			}
		}
		loops := map[string]int64{}
		for i, c := range cs {
			if hooks[i].kind == raw {
				loops[hooks[i].lang+hooks[i].mode] = summarize(c.samples).Median
			}
		}
		for i, c := range cs {
			h := hooks[i]
			r := payloadRow{
				History: size.Bytes, Params: len(params), Mode: h.mode, ID: h.id, Label: c.label,
				Failures: c.failures, summary: summarize(c.samples),
			}
			if h.kind != floor {
				r.JSONCost = cost[h.lang]
				r.Share = share(c.samples, floors[h.mode])
				r.ShareVsJSON = ratio(r.Share, r.JSONCost)
			}
			if h.kind == sdk {
				r.VsLoop = ratio(r.Median, loops[h.lang+h.mode])
			}
			b.res.Payload = append(b.res.Payload, r)
		}
	}
	return nil
}

// share is what a hook adds to the floor: the median of the differences
// between the samples the two took in the same round, which the load of
// the machine, changing from round to round, hits alike.
func share(hook, floor []time.Duration) int64 {
	if len(hook) != len(floor) { // a failed call put them out of step
		return summarize(hook).Median - summarize(floor).Median
	}
	diffs := make([]time.Duration, len(hook))
	for i := range hook {
		diffs[i] = hook[i] - floor[i]
	}
	return summarize(diffs).Median
}

// sameButTool checks that a before_llm request came back whole: the same
// messages, and the tools, with bench_tool added when added is true.
func sameButTool(sent, got protocol.BeforeLLMParams, added bool) error {
	want := len(sent.Tools)
	if added {
		want++
	}
	switch {
	case len(got.Messages) != len(sent.Messages):
		return fmt.Errorf("%d messages came back of %d", len(got.Messages), len(sent.Messages))
	case len(got.Tools) != want:
		return fmt.Errorf("%d tools came back, want %d", len(got.Tools), want)
	case added && got.Tools[want-1].Function.Name != "bench_tool":
		return fmt.Errorf("the last tool is %q, want bench_tool", got.Tools[want-1].Function.Name)
	}
	return nil
}

// jsonCost is the median time each language takes to parse and serialize
// params, bytes in and bytes out, in its own standard library.
func (b *bench) jsonCost(params []byte, reps int) (map[string]int64, error) {
	var samples []time.Duration
	for range reps {
		start := time.Now()
		var v any
		if err := json.Unmarshal(params, &v); err != nil {
			return nil, err
		}
		if _, err := json.Marshal(v); err != nil {
			return nil, err
		}
		samples = append(samples, time.Since(start))
	}
	cost := map[string]int64{"go": summarize(samples).Median}

	file := filepath.Join(b.env.bin, "params.json")
	if err := os.WriteFile(file, params, 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(file)
	for lang, argv := range map[string][]string{
		"python": {b.env.python, filepath.Join(b.env.root, "bench", "hooks", "python", "jsoncost.py")},
		"node":   {b.env.node, filepath.Join(b.env.root, "bench", "hooks", "node", "jsoncost.mjs")},
	} {
		out, err := exec.Command(argv[0], append(argv[1:], file, strconv.Itoa(reps))...).Output()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
		}
		samples = samples[:0]
		for _, f := range strings.Fields(string(out)) {
			ns, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", argv[1], err)
			}
			samples = append(samples, time.Duration(ns))
		}
		if len(samples) != reps {
			return nil, fmt.Errorf("%s: %d timings, want %d", argv[1], len(samples), reps)
		}
		cost[lang] = summarize(samples).Median
	}
	return cost, nil
}

// llmRequest is a hook.before_llm request as an agent sends it, with a
// message history of about size bytes of JSON: turns of up to 1 KB of
// prose, with the newlines and quotes that make encoders work.
func llmRequest(size int) protocol.BeforeLLMParams {
	req := protocol.BeforeLLMParams{
		Meta: &protocol.Meta{
			AgentID: ptr("agent-1"), TurnID: ptr("turn-1"), ParentTurnID: ptr(""),
			SessionKey: ptr("session-1"), Iteration: ptr(1), Source: ptr("agent"),
		},
		Context: &protocol.TurnContext{Inbound: &protocol.InboundContext{
			Channel: ptr("cli"), ChatID: ptr("direct"), SenderID: ptr("user"),
		}},
		Model: "scripted",
		Tools: []protocol.ToolDefinition{
			tool("read_file", "Read a file of the workspace", "path"),
			tool("echo_text", "Answer with the text given", "text"),
		},
		Options: map[string]any{"temperature": 0.2, "max_tokens": 4096},
		Channel: ptr("cli"),
		ChatID:  ptr("direct"),
	}
	words := strings.Fields(`the agent reads a file and calls a tool "quoted" while the hook
		checks each call; results come back as text, numbers 42 and 3.14, paths like
		notes/2026-05-01.md, and a line break now and then`)
	rng := rand.New(rand.NewPCG(1, 2))
	roles := []string{"user", "assistant"}
	for total := 0; total < size; {
		var text strings.Builder
		want := min(1<<10, size-total) - 40 // what a message adds besides its content
		for text.Len() < want {
			text.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(12) == 0 {
				text.WriteByte('\n')
			} else {
				text.WriteByte(' ')
			}
		}
		m := protocol.Message{Role: roles[len(req.Messages)%2], Content: ptr(text.String())}
		enc, _ := protocol.Marshal(m)
		total += len(enc) + 1
		req.Messages = append(req.Messages, m)
	}
	return req
}

func tool(name, description, param string) protocol.ToolDefinition {
	return protocol.ToolDefinition{Type: "function", Function: protocol.FunctionDefinition{
		Name: name, Description: ptr(description),
		Parameters: fmt.Appendf(nil, `{"type":"object","properties":{%[1]q:{"type":"string"}},"required":[%[1]q]}`, param),
	}}
}
