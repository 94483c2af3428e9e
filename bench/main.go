// Command bench measures what hooks cost an agent, side by side in one run:
// the round-trip of hook.before_tool through the reference runtime to the
// least hook of each SDK, against a loop written by hand in the same
// language and a raw pipe ping-pong; eight callers at once; before_llm
// payloads from 1 KB to 10 MB; an agent loop with a hook that observes
// every event; start-up; and memory. It prints a table of medians, p99s and
// ratios, writes the figures as JSON, and exits 1 when a contender answered
// wrong. BENCHMARKS.md, at the root of the repository, explains the method.
//
//	go tool mage bench                    # from the root of the repository
//	go run . -quick -out /tmp/quick.json  # from bench/: a tenth of the counts
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

// config holds the counts of a run.
type config struct {
	// Calls is how many hook.before_tool round-trips each contender makes,
	// after Warmup more, in Rounds rounds.
	Calls  int `json:"calls"`
	Warmup int `json:"warmup"`
	Rounds int `json:"rounds"`
	// ConcurrentCalls are made by Callers callers at once, per hook.
	ConcurrentCalls int `json:"concurrent_calls"`
	Callers         int `json:"callers"`
	// Payloads are the sizes of the before_llm message histories.
	Payloads []payloadSize `json:"payloads"`
	// Events is how many events the agent loop raises, per contender and pace.
	Events int `json:"events"`
	// LLMDelay is how long the LLM of the paced agent loop takes to answer.
	LLMDelay time.Duration `json:"llm_delay_ns"`
	// Startups is how many times each program is started.
	Startups int `json:"startups"`
	// IdleGap is how long the machine idles before each event of the
	// bridge's after-idle contenders, as it does while an agent's model
	// thinks between two tool calls.
	IdleGap time.Duration `json:"idle_gap_ns"`
	// Only, when set, names the sections to run; the others are left out.
	Only []string `json:"only,omitempty"`
}

// sectionNames are the sections of a run, in the order they run.
var sectionNames = []string{"roundtrip", "concurrency", "payloads", "observe", "startup", "bridge", "inspect", "telemetry"}

type payloadSize struct {
	Bytes int `json:"bytes"`
	Calls int `json:"calls"`
}

// defaults are the counts of the issue: 20,000 calls, 100,000 events.
func defaults() config {
	return config{
		Calls: 20_000, Warmup: 2_000, Rounds: 40,
		ConcurrentCalls: 20_000, Callers: 8,
		Payloads: []payloadSize{
			{Bytes: 1 << 10, Calls: 2_000},
			{Bytes: 100 << 10, Calls: 200},
			{Bytes: 1 << 20, Calls: 40},
			{Bytes: 10 << 20, Calls: 8},
		},
		Events:   100_000,
		LLMDelay: time.Millisecond,
		Startups: 30,
		IdleGap:  time.Second,
	}
}

// quick is a tenth of the defaults, for a look in half a minute.
func quick() config {
	c := defaults()
	c.Calls, c.Warmup, c.Rounds = c.Calls/10, c.Warmup/10, c.Rounds/4
	c.ConcurrentCalls /= 10
	for i := range c.Payloads {
		c.Payloads[i].Calls = max(2, c.Payloads[i].Calls/10)
	}
	c.Events /= 10
	c.Startups /= 3
	return c
}

func main() {
	relayIfAsked()
	quickRun := flag.Bool("quick", os.Getenv("HOOKWIRE_BENCH_QUICK") != "", "a tenth of the counts (also: HOOKWIRE_BENCH_QUICK=1)")
	out := flag.String("out", "results.json", "where to write the figures")
	root := flag.String("root", "..", "the root of the repository")
	only := flag.String("only", "", "run only these sections, comma-separated: "+strings.Join(sectionNames, ","))
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of this process, which hosts the runtime")
	flag.Parse()
	cfg := defaults()
	if *quickRun {
		cfg = quick()
	}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	res, err := run(context.Background(), cfg, *root, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	res.Quick = *quickRun
	res.print(os.Stdout)
	data, _ := json.MarshalIndent(res, "", "  ")
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Printf("\nfigures written to %s\n", *out)
	if len(res.Failures) > 0 {
		fmt.Fprintln(os.Stderr, "bench: some contenders answered wrong; their figures are not to be trusted")
		os.Exit(1)
	}
}

// bench is one run.
type bench struct {
	ctx      context.Context
	cfg      config
	env      *env
	rng      *rand.Rand
	progress io.Writer
	hooks    map[string]*hook // by id
	res      *results
}

// run measures everything cfg says, in one run, and returns the figures.
// Contenders that answer wrong are in results.Failures; err is for a run
// that could not be made at all.
func run(ctx context.Context, cfg config, root string, progress io.Writer) (*results, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	bin, err := os.MkdirTemp("", "hookwire-bench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(bin)
	fmt.Fprintln(progress, "building the hooks")
	e, err := prepare(root, bin)
	if err != nil {
		return nil, err
	}
	b := &bench{
		ctx: ctx, cfg: cfg, env: e, progress: progress,
		rng:   rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0)),
		hooks: map[string]*hook{},
		res:   &results{Date: time.Now().UTC().Format(time.RFC3339), Config: cfg},
	}
	b.res.Machine = describeMachine(e)
	defer b.closeHooks()

	fmt.Fprintln(progress, "starting the hooks")
	for _, lang := range langs {
		for _, kind := range []string{raw, sdk} {
			for _, mode := range []string{modeContinue, modeModify} {
				if err := b.startHook(lang, kind, mode); err != nil {
					return nil, err
				}
			}
		}
		for _, mode := range []string{modeObserve, modeObserveWait} {
			if err := b.startHook(lang, sdk, mode); err != nil {
				return nil, err
			}
		}
	}
	for _, mode := range []string{modeContinue, modeModify} {
		if err := b.startHook("go", floor, mode); err != nil {
			return nil, err
		}
	}
	if err := b.startHook("go", tap, modeContinue); err != nil {
		return nil, err
	}

	sections := map[string]func() error{
		"roundtrip":   b.roundTrip,
		"concurrency": b.concurrency,
		"payloads":    b.payloads,
		"observe":     b.observe,
		"startup":     b.startup,
		"bridge":      b.bridge,
		"inspect":     b.inspect,
		"telemetry":   b.telemetry,
	}
	for _, name := range cfg.Only {
		if sections[name] == nil {
			return nil, fmt.Errorf("no section %q (there are: %s)", name, strings.Join(sectionNames, ", "))
		}
	}
	for _, name := range sectionNames {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, name) {
			continue
		}
		fmt.Fprintln(progress, name)
		if err := sections[name](); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		// Peak RSS is read after the calls and after the payloads.
		switch name {
		case "concurrency":
			err = b.memory(&b.res.Memory.AfterCalls)
		case "payloads":
			err = b.memory(&b.res.Memory.AfterPayloads)
		}
		if err != nil {
			return nil, fmt.Errorf("memory: %w", err)
		}
	}
	b.res.RuntimeWarnings = e.log.counts()
	b.res.Machine.LoadAfter = loadAverage()
	b.res.judge()
	return b.res, nil
}

func (b *bench) startHook(lang, kind, mode string) error {
	h, err := b.env.start(b.ctx, lang, kind, mode)
	if err != nil {
		return err
	}
	b.hooks[h.id] = h
	return nil
}

func (b *bench) hook(lang, kind, mode string) *hook {
	id := lang + "-" + kind
	if mode != modeContinue {
		id += "-" + mode
	}
	return b.hooks[id]
}

func (b *bench) closeHooks() {
	for _, h := range b.hooks {
		h.rt.Close()
	}
}

// failures adds the failures of contenders to the results.
// measure warms each contender up with warmup calls in warmupRounds,
// then records calls more in rounds, the contenders' turns interleaved so
// that they meet the same load, and notes the contenders that failed.
func (b *bench) measure(cs []*contender, warmup, warmupRounds, calls, rounds int) {
	turn := func(record bool) func(i, n int) {
		return func(i, n int) {
			for range n {
				cs[i].measure(record)
			}
		}
	}
	interleave(b.rng, len(cs), warmup, warmupRounds, turn(false))
	interleave(b.rng, len(cs), calls, rounds, turn(true))
	b.failures(cs)
}

func (b *bench) failures(cs []*contender) {
	for _, c := range cs {
		if f := c.failed(); f != "" {
			b.res.Failures = append(b.res.Failures, f)
		}
	}
}
