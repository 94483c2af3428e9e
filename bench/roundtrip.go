package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// roundTrip times hook.before_tool calls: the raw pipe, the Go loop driven
// by a bare pipe client, by the runtime's connection and by the runtime;
// then each language's loop and SDK hook, through the runtime.
func (b *bench) roundTrip() error {
	call := toolCall()
	params, err := protocol.Marshal(call)
	if err != nil {
		return err
	}
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`+"\n", protocol.MethodBeforeTool, params)
	isContinue := func(reply []byte) bool { return bytes.Contains(reply, []byte(`"continue"`)) }

	pipe, err := startBare([]string{"cat"}, line, func(reply []byte) bool { return bytes.Equal(reply, line) })
	if err != nil {
		return err
	}
	defer pipe.close()
	bare, err := startBare(b.env.argv("go", raw, modeContinue), line, isContinue)
	if err != nil {
		return err
	}
	defer bare.close()
	codec, err := startBare(b.env.argv("go", raw, modeContinue), nil, nil)
	if err != nil {
		return err
	}
	defer codec.close()
	proc, err := runtime.Spawn(b.ctx, runtime.Command{
		Name: "go-raw-conn", Argv: b.env.argv("go", raw, modeContinue), Modes: []protocol.Mode{protocol.ModeTool},
	}, runtime.ProcessOptions{Conn: runtime.ConnOptions{Logger: b.env.log.logger()}})
	if err != nil {
		return err
	}
	defer proc.Close()

	cs := []*contender{
		{id: "pipe", label: "raw pipe ping-pong (cat)", do: pipe.call},
		{id: "go-raw-bare", label: "go loop, bare pipe client", do: bare.call},
		{id: "go-raw-codec", label: "go loop, bare client with the codec", do: func() error { return codec.callCoded(call) }},
		{id: "go-raw-conn", label: "go loop, runtime connection", do: func() error {
			reply, err := proc.Call(b.ctx, protocol.MethodBeforeTool, call)
			if err == nil && !isContinue(reply) {
				err = fmt.Errorf("unexpected reply %.200s", reply)
			}
			return err
		}},
	}
	for _, h := range []*hook{b.hook("go", raw, modeContinue), b.hook("go", sdk, modeContinue), b.hook("go", tap, modeContinue),
		b.hook("python", raw, modeContinue), b.hook("python", sdk, modeContinue), b.hook("node", raw, modeContinue), b.hook("node", sdk, modeContinue)} {
		cs = append(cs, &contender{id: h.id, label: label(h.lang, h.kind), do: func() error {
			_, d := h.rt.BeforeTool(b.ctx, call)
			return expect(d, protocol.ActionContinue)
		}})
	}
	fmt.Fprintf(b.progress, "  %d contenders, %d calls each after %d to warm up\n", len(cs), b.cfg.Calls, b.cfg.Warmup)
	b.measure(cs, b.cfg.Warmup, b.cfg.Rounds, b.cfg.Calls, b.cfg.Rounds)

	byID := map[string]summary{}
	for _, c := range cs {
		byID[c.id] = summarize(c.samples)
	}
	for _, c := range cs {
		s := byID[c.id]
		r := row{ID: c.id, Label: c.label, summary: s, VsPipe: ratio(s.Median, byID["pipe"].Median)}
		if h, ok := b.hooks[c.id]; ok && (h.kind == sdk || h.kind == tap) {
			r.VsLoop = ratio(s.Median, byID[h.lang+"-raw"].Median)
		}
		if c.id == "go-tap" {
			r.Overhead = s.Median - byID["go-raw"].Median
		}
		if c.id == "go-raw-conn" || c.id == "go-raw" || c.id == "go-raw-codec" {
			r.VsLoop = ratio(s.Median, byID["go-raw-bare"].Median)
		}
		if c.id == "go-raw-conn" || c.id == "go-raw" {
			r.VsCodec = ratio(s.Median, byID["go-raw-codec"].Median)
		}
		b.res.RoundTrip = append(b.res.RoundTrip, r)
	}
	return nil
}

// concurrency times Callers callers calling one hook at once.
func (b *bench) concurrency() error {
	call := toolCall()
	type load struct {
		h     *hook
		cpu   time.Duration // the hook process's
		calls int
		rates []float64 // calls a second, of each round
		c     *contender
	}
	var loads []*load
	for _, lang := range langs {
		for _, kind := range []string{raw, sdk} {
			h := b.hook(lang, kind, modeContinue)
			loads = append(loads, &load{h: h, c: &contender{id: h.id, label: label(lang, kind)}})
		}
	}
	callers := b.cfg.Callers
	fmt.Fprintf(b.progress, "  %d contenders, %d calls each from %d callers at once\n", len(loads), b.cfg.ConcurrentCalls, callers)
	interleave(b.rng, len(loads), b.cfg.ConcurrentCalls, b.cfg.Rounds/2, func(i, n int) {
		l := loads[i]
		samples := make([][]time.Duration, callers)
		errs := make([][]error, callers)
		var wg sync.WaitGroup
		cpu, start := cpuTime(l.h.pid), time.Now()
		for g := range callers {
			wg.Go(func() {
				for j := g; j < n; j += callers {
					t := time.Now()
					_, d := l.h.rt.BeforeTool(b.ctx, call)
					took := time.Since(t)
					if err := expect(d, protocol.ActionContinue); err != nil {
						errs[g] = append(errs[g], err)
						continue
					}
					samples[g] = append(samples[g], took)
				}
			})
		}
		wg.Wait()
		wall := time.Since(start)
		l.cpu += cpuTime(l.h.pid) - cpu
		calls := 0
		for g := range callers {
			l.c.samples = append(l.c.samples, samples[g]...)
			calls += len(samples[g])
			for _, err := range errs[g] {
				l.c.fail(err)
			}
		}
		l.calls += calls
		l.rates = append(l.rates, float64(calls)/wall.Seconds())
	})
	perSec, cpuPerCall := map[string]float64{}, map[string]int64{}
	for _, l := range loads {
		// The median round's: a round that a neighbour on the machine
		// slowed moves it no more than a call's time moves a median.
		slices.Sort(l.rates)
		perSec[l.h.id] = l.rates[len(l.rates)/2]
		cpuPerCall[l.h.id] = int64(l.cpu) / int64(max(l.calls, 1))
	}
	for _, l := range loads {
		r := row{ID: l.h.id, Label: l.c.label, summary: summarize(l.c.samples), CallsPerSec: round(perSec[l.h.id]),
			HookCPU: cpuPerCall[l.h.id]}
		if l.h.kind == sdk {
			r.VsLoop = round(perSec[l.h.id]/perSec[l.h.lang+"-raw"]*1000) / 1000
			r.CPUVsLoop = ratio(cpuPerCall[l.h.id], cpuPerCall[l.h.lang+"-raw"])
		}
		b.res.Concurrency = append(b.res.Concurrency, r)
		b.failures([]*contender{l.c})
	}
	return nil
}

// bareClient is the least a host can do: write a line to a child's stdin
// and read one back from its stdout, with nothing in between.
type bareClient struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	line []byte
	ok   func(reply []byte) bool
	id   uint64 // the last request's, for callCoded
}

func startBare(argv []string, line []byte, ok func([]byte) bool) (*bareClient, error) {
	cmd, in, out, err := startPiped(argv)
	if err != nil {
		return nil, err
	}
	return &bareClient{cmd: cmd, in: in, out: out, line: line, ok: ok}, nil
}

// startPiped starts argv with pipes to its stdin and from its stdout.
func startPiped(argv []string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, err
	}
	return cmd, in, bufio.NewReaderSize(out, 64<<10), nil
}

func (c *bareClient) call() error {
	if _, err := c.in.Write(c.line); err != nil {
		return err
	}
	reply, err := c.out.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !c.ok(reply) {
		return fmt.Errorf("unexpected reply %.200s", reply)
	}
	return nil
}

// callCoded is a call as a host must make it, with nothing else: the
// params encoded and the reply decoded by the protocol's codec, as the
// runtime's connection does, on one goroutine, with no map of calls, no
// deadline and no log.
func (c *bareClient) callCoded(params protocol.BeforeToolParams) error {
	c.id++
	encoded, err := protocol.Marshal(&params)
	if err != nil {
		return err
	}
	c.line = fmt.Appendf(c.line[:0], `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, protocol.MethodBeforeTool, encoded)
	if _, err := c.in.Write(c.line); err != nil {
		return err
	}
	line, err := c.out.ReadSlice('\n')
	if err != nil {
		return err
	}
	var reply protocol.Response
	if err := protocol.Unmarshal(line, &reply); err != nil {
		return err
	}
	result, err := protocol.DecodeResult(protocol.MethodBeforeTool, reply.Result)
	if err != nil {
		return err
	}
	if _, ok := result.(protocol.Continue); !ok || reply.ID == nil || *reply.ID != c.id {
		return fmt.Errorf("unexpected reply %.200s", line)
	}
	return nil
}

func (c *bareClient) close() {
	c.in.Close()
	c.cmd.Wait()
}

// expect is nil when the hooks decided want.
func expect(d runtime.Decision, want protocol.Action) error {
	if d.Action != want {
		return fmt.Errorf("decision %s (hook %s: %s), want %s", d.Action, d.Hook, d.Reason, want)
	}
	return nil
}

func label(lang, kind string) string {
	switch kind {
	case raw:
		return lang + " loop, runtime"
	case floor:
		return "floor (go, no parse)"
	case tap:
		return lang + " loop under tap, runtime"
	default:
		return lang + " sdk, runtime"
	}
}
