package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"
	"text/tabwriter"
)

// results are the figures of one run, as bench/results.json holds them.
// Times are in nanoseconds, sizes in bytes; ratios are of medians.
type results struct {
	Date    string  `json:"date"`
	Quick   bool    `json:"quick"`
	Machine machine `json:"machine"`
	Config  config  `json:"config"`

	RoundTrip   []row        `json:"round_trip"`
	Concurrency []row        `json:"concurrency"`
	Payload     []payloadRow `json:"payload"`
	Observe     []observeRow `json:"observe"`
	Startup     []row        `json:"startup"`
	// Bridge is the wall time of one agent event under hookwire bridge;
	// VsLoop is against a plain command hook doing the same check.
	Bridge []row `json:"bridge"`
	// Inspect is a round trip with the hook-in of hookwire inspect, with
	// and without an inspector; VsLoop is against no hook-in at all.
	Inspect []row `json:"inspect"`
	// Telemetry is a round trip with hookwire run's OpenTelemetry
	// exporter, the variables unset and set; VsLoop is against none.
	Telemetry []row `json:"telemetry"`
	Memory    struct {
		AfterCalls    []memRow `json:"after_calls"`
		AfterPayloads []memRow `json:"after_payloads"`
	} `json:"memory"`

	Targets         []target       `json:"targets"`
	RuntimeWarnings map[string]int `json:"runtime_warnings"`
	Failures        []string       `json:"failures"`
}

type machine struct {
	OS         string `json:"os"`
	CPUs       int    `json:"cpus"`
	CPU        string `json:"cpu"`
	Go         string `json:"go"`
	Python     string `json:"python"`
	Node       string `json:"node"`
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
}

// row is a contender of the round-trip, concurrency and start-up sections.
type row struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	summary
	// VsPipe is the median against the raw pipe's.
	VsPipe float64 `json:"vs_pipe,omitempty"`
	// VsLoop is, for an SDK, the median (calls per second, for concurrency)
	// against its language's hand-written loop through the runtime; for
	// the Go loop through the runtime or its connection, against the same
	// loop driven by a bare pipe client.
	VsLoop float64 `json:"vs_loop,omitempty"`
	// VsCodec is, for the Go loop through the runtime or its connection,
	// the median against the same loop driven by a bare client that
	// encodes and decodes with the protocol's codec, as the connection does.
	VsCodec float64 `json:"vs_codec,omitempty"`
	// VsBare is a start-up against the bare interpreter's; Limit is the
	// target: 1.3 times the bare interpreter, plus 10 ms.
	VsBare      float64 `json:"vs_bare,omitempty"`
	Limit       int64   `json:"limit_ns,omitempty"`
	CallsPerSec float64 `json:"calls_per_sec,omitempty"`
	// HookCPU is, with many callers, the CPU time the hook process spent
	// per call (all its threads), and CPUVsLoop an SDK's against its
	// language's loop.
	HookCPU   int64   `json:"hook_cpu_per_call_ns,omitempty"`
	CPUVsLoop float64 `json:"hook_cpu_vs_loop,omitempty"`
	// Overhead is, for the Go loop under hookwire tap, its median less the
	// Go loop's: what tap adds to a round trip, recording included.
	Overhead int64 `json:"overhead_ns,omitempty"`
}

type payloadRow struct {
	History  int    `json:"history_bytes"`
	Params   int    `json:"params_bytes"`
	Mode     string `json:"mode"`
	ID       string `json:"id"`
	Label    string `json:"label"`
	Failures int    `json:"failures"`
	summary
	// JSONCost is the language's own parse plus serialize of the params.
	JSONCost int64 `json:"json_cost_ns,omitempty"`
	// Share is what the hook adds to the floor of its mode (the host and
	// the pipe): its median less the floor's.
	Share       int64   `json:"hook_share_ns,omitempty"`
	ShareVsJSON float64 `json:"share_vs_json,omitempty"`
	VsLoop      float64 `json:"vs_loop,omitempty"`
	// PerMB, on the largest size, is the cost of each MB more, from the
	// smallest size to the largest.
	PerMB int64 `json:"ns_per_mb,omitempty"`
}

type observeRow struct {
	Pace  string `json:"pace"`
	ID    string `json:"id"`
	Label string `json:"label"`
	// The samples are agent turns, each in a session of its own.
	summary
	Slowdown float64 `json:"slowdown"`
	Events   int64   `json:"events"`
	Dropped  uint64  `json:"dropped"`
	// Waited counts the events the agent waited for room in the hook's
	// queue (flood-wait).
	Waited uint64 `json:"waited"`
}

type memRow struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Peak  int64  `json:"peak_rss_bytes"`
}

type target struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"`
	// AtLeast is true when the value must reach the limit, not stay under it.
	AtLeast bool `json:"at_least,omitempty"`
	Met     bool `json:"met"`
}

func describeMachine(e *env) machine {
	m := machine{
		OS: goruntime.GOOS + "/" + goruntime.GOARCH, CPUs: goruntime.NumCPU(), Go: goruntime.Version(),
		LoadBefore: loadAverage(),
	}
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(info)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	version := func(argv ...string) string {
		out, _ := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	m.Python, m.Node = version(e.python, "--version"), version(e.node, "--version")
	return m
}

// loadAverage is the 1, 5 and 15 minute load averages: the machine is
// shared, and its load says how much to trust a run.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// judge checks the targets of the issue against the figures.
func (r *results) judge() {
	check := func(name string, value, limit float64, unit string) {
		r.Targets = append(r.Targets, target{Name: name, Value: value, Limit: limit, Unit: unit, Met: value <= limit})
	}
	checkAtLeast := func(name string, value, limit float64, unit string) {
		r.Targets = append(r.Targets, target{Name: name, Value: value, Limit: limit, Unit: unit, AtLeast: true, Met: value >= limit})
	}
	find := func(rows []row, id string) (row, bool) {
		for _, x := range rows {
			if x.ID == id {
				return x, true
			}
		}
		return row{}, false
	}
	for _, lang := range langs {
		if s, ok := find(r.RoundTrip, lang+"-sdk"); ok {
			check(lang+" sdk round-trip, against the "+lang+" loop", s.VsLoop, 1.3, "x")
		}
	}
	if s, ok := find(r.RoundTrip, "go-sdk"); ok {
		check("go sdk round-trip, against the raw pipe", s.VsPipe, 2, "x")
	}
	if s, ok := find(r.RoundTrip, "go-raw"); ok {
		check("go loop through the runtime, against the raw pipe", s.VsPipe, 2, "x")
		check("go loop through the runtime, against the same loop on a bare pipe client", s.VsLoop, 1.3, "x")
		check("go loop through the runtime, against a bare client that encodes and decodes with the codec (proposed)", s.VsCodec, 1.3, "x")
	}
	if s, ok := find(r.Concurrency, "python-sdk"); ok {
		checkAtLeast("python sdk, 8 callers: calls/s against the python loop's", s.VsLoop, 0.9, "x")
	}
	for _, lang := range langs {
		if s, ok := find(r.Startup, lang+"-sdk"); ok {
			check(lang+" sdk start-up (limit: "+startupLimitText(lang)+")", ms(s.Median), ms(s.Limit), "ms")
		}
	}

	if s, ok := find(r.Inspect, "inspect-idle"); ok {
		check("round trip with the inspector's hook-in and none running, against none at all (identical: within 2%)", s.VsLoop, 1.02, "x")
	}
	if s, ok := find(r.Inspect, "inspect-listening"); ok {
		check("round trip with hookwire inspect listening, against none at all", s.VsLoop, 1.05, "x")
	}
	if s, ok := find(r.Telemetry, "otel-unset"); ok {
		check("round trip with the OpenTelemetry exporter, its variables unset, against none (within 2%)", s.VsLoop, 1.02, "x")
	}
	if s, ok := find(r.Telemetry, "otel-set"); ok {
		check("round trip exported to a collector (batched), against no exporter", s.VsLoop, 1.10, "x")
	}
	if s, ok := find(r.Bridge, "bridge-warm"); ok {
		check("warm hookwire-bridge event, against a plain Python command hook (5x faster)", s.VsLoop, 0.2, "x")
	}
	if s, ok := find(r.Bridge, "mcp-warm"); ok {
		check("warm mcp_tool event (hookwire bridge --mcp), against a plain Python command hook, asked in turn (20x faster)", s.VsLoop, 0.05, "x")
	}
	if s, ok := find(r.Bridge, "mcp-first"); ok {
		check("first mcp_tool event of a session, its server started with the session", ms(s.Median), 30, "ms")
	}
	for _, s := range r.Bridge {
		if agent, ok := strings.CutPrefix(s.ID, "bridge-agent-"); ok {
			check("warm hookwire-bridge event, "+agent+"'s form, against a plain Python command hook", s.VsLoop, 0.2, "x")
		}
	}

	// Payloads: the cost per MB of each contender, and the targets at the largest size.
	failed, smallest, largest := 0, 0, 0
	for _, p := range r.Payload {
		failed += p.Failures
		if smallest == 0 || p.History < smallest {
			smallest = p.History
		}
		largest = max(largest, p.History)
	}
	for i, p := range r.Payload {
		if p.History != largest || largest == smallest {
			continue
		}
		for _, q := range r.Payload {
			if q.ID == p.ID && q.History == smallest {
				r.Payload[i].PerMB = int64(float64(p.Median-q.Median) / (float64(p.Params-q.Params) / (1 << 20)))
			}
		}
		if lang, _, _ := strings.Cut(p.ID, "-"); strings.HasPrefix(p.ID, lang+"-sdk") {
			check(fmt.Sprintf("%s sdk before_llm %s at %s: share against %s's own parse+serialize", lang, p.Mode, humanBytes(int64(p.History)), lang),
				p.ShareVsJSON, 2, "x")
		}
	}
	if len(r.Payload) > 0 {
		check("before_llm calls that failed, at any size", float64(failed), 0, "calls")
	}

	for _, o := range r.Observe {
		if o.ID == "none" {
			continue
		}
		if o.Pace != "flood-wait" { // waiting is its point: its slowdown is reported, not judged
			check(fmt.Sprintf("%s agent loop with %s, against no hook", o.Pace, o.Label), o.Slowdown, 1.05, "x")
		}
		if o.Pace != "flood" {
			check(fmt.Sprintf("%s events dropped for %s", o.Pace, o.Label), float64(o.Dropped), 0, "events")
		}
	}
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// print writes the figures as tables.
func (r *results) print(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "hookwire benchmarks, %s%s\n", r.Date, map[bool]string{true: " (quick: a tenth of the counts)"}[r.Quick])
	fmt.Fprintf(w, "%s, %d CPUs (%s), %s, %s, Node %s\n", m.OS, m.CPUs, m.CPU, m.Go, m.Python, m.Node)
	fmt.Fprintf(w, "load average before %s, after %s: a shared machine; contenders ran interleaved, in rounds\n", m.LoadBefore, m.LoadAfter)
	c := r.Config

	table := func(title string, header string, rows func(t io.Writer)) {
		var body bytes.Buffer
		rows(&body)
		if body.Len() == 0 {
			return // a section left out of the run
		}
		fmt.Fprintf(w, "\n%s\n", title)
		t := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(t, header)
		t.Write(body.Bytes())
		t.Flush()
	}
	x := func(v float64) string {
		if v == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2fx", v)
	}

	table(fmt.Sprintf("1-2. hook.before_tool round-trip: %d calls each after %d to warm up", c.Calls, c.Warmup),
		"contender\tmedian\tp99\tx pipe\tx loop\tx codec\t", func(t io.Writer) {
			for _, x2 := range r.RoundTrip {
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t\n", x2.Label, human(x2.Median), human(x2.P99), x(x2.VsPipe), x(x2.VsLoop), x(x2.VsCodec))
			}
		})
	if len(r.RoundTrip) > 0 {
		fmt.Fprintln(w, "x loop: an SDK against its language's loop, both through the runtime; the Go loop's")
		fmt.Fprintln(w, "runtime connection and runtime rows against the same loop on a bare pipe; the loop under")
		fmt.Fprintln(w, "tap against the loop; x codec: the Go loop's runtime connection and runtime rows against")
		fmt.Fprintln(w, "the loop on a bare client that encodes and decodes with the protocol's codec")
		for _, x2 := range r.RoundTrip {
			if x2.Overhead != 0 {
				fmt.Fprintf(w, "hookwire tap, recording every line: %s p50 overhead per round trip\n", human(x2.Overhead))
			}
		}
	}

	table(fmt.Sprintf("3. concurrency: %d callers into one hook, %d calls each", c.Callers, c.ConcurrentCalls),
		"contender\tcalls/s\tmedian\tp99\tx loop\thook CPU/call\tx loop\t", func(t io.Writer) {
			for _, x2 := range r.Concurrency {
				fmt.Fprintf(t, "%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t\n", x2.Label, x2.CallsPerSec, human(x2.Median), human(x2.P99), x(x2.VsLoop),
					human(x2.HookCPU), x(x2.CPUVsLoop))
			}
		})

	table("4. hook.before_llm payloads: history size, floor = the host and the pipe (Go loop, no parse)",
		"history\tmode\tcontender\tmedian\tp99\tshare\tJSON\tshare/JSON\tx loop\tper MB\t", func(t io.Writer) {
			for _, p := range r.Payload {
				json, share, perMB := "-", "-", "-"
				if p.JSONCost > 0 {
					json, share = human(p.JSONCost), human(p.Share)
				}
				if p.PerMB != 0 {
					perMB = human(p.PerMB)
				}
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", humanBytes(int64(p.History)), p.Mode, p.Label,
					human(p.Median), human(p.P99), share, json, x(p.ShareVsJSON), x(p.VsLoop), perMB)
			}
		})
	if len(r.Payload) > 0 {
		fmt.Fprintln(w, "share: the median of the differences with the floor in the same round;")
		fmt.Fprintln(w, "JSON: the language's own parse + serialize of the params; at 10 MB, p99 is the slowest of 8")
	}

	table(fmt.Sprintf("5. observe: agent turns (one session each, %d events) until %d events; flood-wait: under observe_overflow wait; paced: the LLM takes %s",
		eventsPerTurn, c.Events, human(int64(c.LLMDelay))),
		"pace\tcontender\tmedian turn\tp99\tslowdown\tevents\tdropped\twaited\t", func(t io.Writer) {
			for _, o := range r.Observe {
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t\n", o.Pace, o.Label, human(o.Median), human(o.P99), x(o.Slowdown), o.Events, o.Dropped, o.Waited)
			}
		})

	table(fmt.Sprintf("6. start-up: spawn to handshake done, %d times each", c.Startups),
		"contender\tmedian\tp99\tx bare\tlimit\t", func(t io.Writer) {
			for _, s := range r.Startup {
				limit := "-"
				if s.Limit > 0 {
					limit = human(s.Limit)
				}
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t\n", s.Label, human(s.Median), human(s.P99), x(s.VsBare), limit)
			}
		})

	table("7. memory: peak RSS (VmHWM)", "process\tafter the calls\tafter the payloads\t", func(t io.Writer) {
		after := map[string]int64{}
		for _, m := range r.Memory.AfterPayloads {
			after[m.ID] = m.Peak
		}
		for _, m := range r.Memory.AfterCalls {
			name := m.Label
			if m.ID != "runtime" {
				name = m.ID
			}
			fmt.Fprintf(t, "%s\t%s\t%s\t\n", name, humanBytes(m.Peak), humanBytes(after[m.ID]))
		}
	})

	table("8. hookwire bridge: one event that guards a shell command (Claude Code's PreToolUse, and each agent's form), start of the command to its exit",
		"contender\tmedian\tp99\tx plain hook\t", func(t io.Writer) {
			for _, s := range r.Bridge {
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", s.Label, human(s.Median), human(s.P99), x(s.VsLoop))
			}
		})

	table("9. hookwire inspect: hook.before_tool round trip to the go sdk hook, as hookwire run makes it",
		"contender\tmedian\tp99\tx no hook-in\t", func(t io.Writer) {
			for _, s := range r.Inspect {
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", s.Label, human(s.Median), human(s.P99), x(s.VsLoop))
			}
		})

	table("10. OpenTelemetry: hook.before_tool round trip to the go sdk hook, as hookwire run exports it",
		"contender\tmedian\tp99\tx no exporter\t", func(t io.Writer) {
			for _, s := range r.Telemetry {
				fmt.Fprintf(t, "%s\t%s\t%s\t%s\t\n", s.Label, human(s.Median), human(s.P99), x(s.VsLoop))
			}
		})

	table("targets", "target\tvalue\tlimit\t\t", func(t io.Writer) {
		for _, g := range r.Targets {
			verdict, least := "met", ""
			if !g.Met {
				verdict = "MISSED"
			}
			if g.AtLeast {
				least = "at least "
			}
			fmt.Fprintf(t, "%s\t%.3f %s\t%s%.3f %s\t%s\t\n", g.Name, g.Value, g.Unit, least, g.Limit, g.Unit, verdict)
		}
	})

	if len(r.RuntimeWarnings) > 0 {
		fmt.Fprintln(w, "\nthe runtime warned:")
		for msg, n := range r.RuntimeWarnings {
			fmt.Fprintf(w, "  %d x %s\n", n, msg)
		}
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "FAILED %s\n", f)
	}
}
