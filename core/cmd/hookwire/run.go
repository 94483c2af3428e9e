package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/audit"
	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/skillhooks"
	"github.com/hookwire/hookwire/core/transcript"
	"github.com/hookwire/hookwire/core/wiretap"
)

var runCommand = command{
	name: "run",
	args: "[--hooks FILE] [--config FILE] [--host NAME] [--json] [--trace FILE] [--failure-policy open|closed] [--check] [--watch] SCENARIO",
	summary: `Plays the scenario's agent turns: each user prompt, then its scripted LLM
replies, in its session, with the built-in tools the scenario names (echo_text
and read_file unless it says) and the hooks of the hooks configuration. Prints
a transcript of every LLM round, tool call, hook call, decision and timing on
stdout; the hooks' stderr and the runtime's log go to stderr. Exits 1 when a
turn fails (not when a hook aborts it).

With --check, the scenario is a test: its "expect" list says what the run
must do, and run exits 1 when an expectation misses, printing for each what
was expected, what happened and where, or 0 with a one-line summary when all
hold. Its items:
  {"call": 2, "action": "deny_tool", "reason": "rm .*"}
      hook call 2 (every interceptor and approver call counts, in order)
      answered deny_tool, its reason matching the regular expression; hook,
      method and tool may name what the call must be; action is continue,
      modify, respond, deny_tool, abort_turn, hard_abort, approved, denied,
      abstained, or failed (an error, a crash, the deadline)
  {"tool": "shell", "runs": false}
      the tool shell never runs (true: it runs at least once)
  {"done": "sunny"}
      the last turn ends done, its answer matching

With --watch, run plays the scenario again each time a file it depends on
changes (the hooks configuration, the scenario, and the files the hooks'
commands name, such as a hook's script), after a separator line; Ctrl-C or
SIGTERM stops it. The check and its verdict go with every run.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		var o runOptions
		fs.StringVar(&o.hooks, "hooks", "", "hooks configuration `file` in hookwire's format; with --config, hookwire's settings added to PicoClaw's")
		fs.StringVar(&o.configFile, "config", "", "PicoClaw's configuration `file` (config.json), whole: its hooks section is read as PicoClaw reads it")
		hostName := fs.String("host", "reference", "the host to behave as: reference (the protocol documents), picoclaw (PicoClaw as its code behaves), or an agent behind hookwire-bridge: "+agentNames())
		fs.BoolVar(&o.jsonl, "json", false, "print the transcript as JSON Lines; only duration_ms varies between runs")
		fs.StringVar(&o.trace, "trace", "", "write every line exchanged with hook processes, both directions, to `file` as JSON Lines; - writes them to stderr for people, > host to hook, < hook to host")
		fs.BoolVar(&o.events, "events", false, "show runtime events in the text transcript")
		fs.BoolVar(&o.messages, "messages", false, "show the messages of each LLM request, as hooks left them")
		fs.StringVar(&o.failurePolicy, "failure-policy", "", "the failure `policy`, open or closed, of before_tool and approve_tool for every hook process, in place of the configuration's failure_policy: closed blocks the tool call a failing guard (error, crash, deadline) was asked about, open lets it run (the default of before_tool)")
		fs.BoolVar(&o.check, "check", false, "hold the run to the scenario's \"expect\" list: exit 1, with what differs, when an expectation misses")
		watch := fs.Bool("watch", false, "play the scenario again each time the hooks configuration, the scenario or a file the hooks' commands name changes, until Ctrl-C or SIGTERM")
		return func(args []string, e env) int {
			if len(args) != 1 {
				return e.fail(exitUsage, "run", errors.New("need exactly one scenario file (see hookwire run --help)"))
			}
			h, err := host.Parse(*hostName)
			if err != nil {
				return e.fail(exitUsage, "run", err)
			}
			o.host, o.scenario = h, args[0]
			if o.failurePolicy != "" && o.failurePolicy != string(runtime.FailOpen) && o.failurePolicy != string(runtime.FailClosed) {
				return e.fail(exitUsage, "run", fmt.Errorf("--failure-policy: %q is not open or closed", o.failurePolicy))
			}
			// Stop the hooks on Ctrl-C too: none may outlive the run.
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if *watch {
				return watchRuns(ctx, o, e)
			}
			return runOnce(ctx, o, e, nil)
		}
	},
}

// runOptions are run's flags.
type runOptions struct {
	scenario, hooks, configFile string
	host                        *host.Host
	jsonl, events, messages     bool
	trace                       string
	failurePolicy               string
	check                       bool
}

// runOnce loads the hooks configuration and plays the scenario once.
// loaded, when set, is given the configuration before the scenario plays
// (an empty one when it could not be read): --watch takes the state of the
// files it names then, so that no edit made during the run goes unseen.
func runOnce(ctx context.Context, o runOptions, e env, loaded func(config.Config)) int {
	cfg, err := loadHooks(o.hooks, o.configFile, o.host)
	if loaded != nil {
		loaded(cfg)
	}
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "hookwire run: %s: warning: %s\n", cmp.Or(o.configFile, o.hooks), w)
	}
	if o.failurePolicy != "" {
		setFailurePolicy(&cfg, runtime.Policy(o.failurePolicy))
	}
	return play(ctx, cfg, o, e)
}

// setFailurePolicy sets the policy of the guards' stages, before_tool and
// approve_tool, for every hook process, as each one's failure_policy would.
// The maps are copied: the configuration's own are left as they were.
func setFailurePolicy(cfg *config.Config, p runtime.Policy) {
	for name, proc := range cfg.Hooks.Processes {
		policies := maps.Clone(proc.FailurePolicy)
		if policies == nil {
			policies = map[string]string{}
		}
		policies[string(runtime.StageBeforeTool)] = string(p)
		policies[string(runtime.StageApproveTool)] = string(p)
		proc.FailurePolicy = policies
		cfg.Hooks.Processes[name] = proc
	}
}

// loadHooks reads the hooks configuration of the flags: --config is
// PicoClaw's config.json, --hooks hookwire's hooks.json beside it or on its
// own. A host with a configuration of its own reads a hooks file as it
// would, and refuses hookwire's settings, which it never reads.
func loadHooks(hooks, configFile string, h *host.Host) (config.Config, error) {
	switch {
	case h.LoadConfig != nil && configFile != "" && hooks != "":
		return config.Config{}, fmt.Errorf("--host %s reproduces %s, which never reads hookwire's settings: leave out --hooks", h.Name, h.Title)
	case configFile != "":
		return config.LoadPicoClaw(configFile, hooks)
	case hooks != "" && h.LoadConfig != nil:
		return h.LoadConfig(hooks, "")
	case hooks != "":
		return config.LoadConfig(hooks)
	}
	return config.Config{}, nil
}

func play(ctx context.Context, cfg config.Config, o runOptions, e env) int {
	scenario, err := agent.LoadScenario(o.scenario)
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	if o.check && len(scenario.Expectations) == 0 {
		return e.fail(exitFail, "run", fmt.Errorf(`--check: %s has no "expect" list, so nothing to check: add one, such as "expect": [{"tool": "shell", "runs": false}] (see hookwire run --help)`, o.scenario))
	}
	h := o.host
	tr := transcript.New(e.stdout, o.jsonl)
	tr.Events, tr.Messages = o.events, o.messages
	var rec agent.Recorder
	pub := feed.Listening(feed.Info{Kind: "run", Host: h.Name, Command: hookCommands(cfg), Scenario: scenarioName(o.scenario)})
	defer pub.Close()
	opts := runtime.Options{Logger: slog.New(cli.NewLogHandler(e.stderr)), OnHookDown: tr.HookDown, Host: h,
		OnCall:   func(c runtime.CallRecord) { rec.Call(c); tr.Call(c) },
		Builtins: map[string]runtime.Builtin{skillhooks.Name: skillhooks.Builtin}}
	if o.trace == "-" {
		opts.Trace = wiretap.Live(e.stderr, wiretap.IsTerminal(e.stderr))
	} else if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			return e.fail(exitFail, "run", err)
		}
		defer f.Close()
		opts.Trace = traceTo(f)
	}
	pub.Attach(&opts)
	decisions := audit.FromEnv(opts.Logger)
	defer decisions.Close() // after the runtime's Close: its last calls recorded too
	decisions.Attach(&opts, audit.Source{Host: "hookwire run"})
	defer exportTelemetry(&opts, audit.Source{Host: "hookwire run"})() // after the runtime's Close
	rt, err := runtime.New(cfg, opts)
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	if err := rt.Start(ctx); err != nil {
		return e.fail(exitFail, "run", err)
	}
	defer rt.Close()
	tr.Hooks(rt.Hooks())

	a := scenario.Agent()
	a.Hooks, a.Loop, a.OnStep = rt, h.Loop, publishSteps(pub, func(s agent.Step) { rec.Step(s); tr.Step(s) })
	mcpTools, closeMCP, err := scenario.ConnectMCP(ctx)
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	defer closeMCP()
	a.Tools = append(a.Tools, mcpTools...)
	_, turnErr := scenario.Play(ctx, a) // closes the agent: its sessions end before the hooks stop
	rt.Close()
	tr.Observed(rt.ObserveStats())
	if err := tr.Err(); err != nil {
		return e.fail(exitFail, "run", err)
	}
	code := exitOK
	if o.check {
		code = printCheck(o.verdicts(e), scenario.Expectations, scenario.Check(&rec))
	}
	if turnErr != nil {
		return e.fail(exitFail, "run", turnErr)
	}
	return code
}

// verdicts is where the check's verdict and --watch's separators go: after
// the transcript, on stdout, unless stdout is JSON Lines, which they would
// spoil: then on stderr.
func (o runOptions) verdicts(e env) io.Writer {
	if o.jsonl {
		return e.stderr
	}
	return e.stdout
}

// printCheck prints each missed expectation, what was expected, what
// happened and where, then a line that sums up; exit 1 when one missed.
func printCheck(w io.Writer, all []agent.Expectation, misses []agent.Miss) int {
	for _, m := range misses {
		fmt.Fprintln(w, m)
	}
	if len(misses) > 0 {
		fmt.Fprintf(w, "check: %d of %d expectations missed\n", len(misses), len(all))
		return exitFail
	}
	fmt.Fprintf(w, "check: all %d expectations hold\n", len(all))
	return exitOK
}

// traceTo writes wire trace records: the hook, the direction ("send" from
// host to hook, "recv" from hook to host), and the line as it was on the
// wire, or as text when it is not JSON.
func traceTo(w io.Writer) func(hook string, out bool, line []byte) {
	var mu sync.Mutex
	return func(hook string, out bool, line []byte) {
		dir := "recv"
		if out {
			dir = "send"
		}
		rec := []byte(fmt.Sprintf(`{"hook":%q,"dir":%q,`, hook, dir))
		if jsonValid(line) {
			rec = append(append(append(rec, `"message":`...), line...), "}\n"...)
		} else {
			rec = append(rec, fmt.Sprintf(`"text":%s}`+"\n", quote(line))...)
		}
		mu.Lock()
		defer mu.Unlock()
		w.Write(rec)
	}
}

// pollEvery is how often --watch looks at the files' modification times
// and sizes: portable, and cheap for the few files a hook has.
const pollEvery = 300 * time.Millisecond

// watchRuns plays the scenario, then again each time a file it depends on
// changes, until ctx ends (Ctrl-C, SIGTERM). It returns the last run's
// exit status. A run that fails to start (a configuration being edited,
// say) is reported and waited out like any other.
func watchRuns(ctx context.Context, o runOptions, e env) int {
	for n := 1; ; n++ {
		// The files named on the command line as they were before they
		// were read, those the configuration names as they were before
		// the scenario played: what changes after is a change to run for.
		before := snapshot(watchedFiles(o, config.Config{}))
		var files []string
		var base map[string]fileState
		code := runOnce(ctx, o, e, func(cfg config.Config) {
			files = watchedFiles(o, cfg)
			base = snapshot(files)
			maps.Copy(base, before)
		})
		if ctx.Err() != nil { // stopped during the run
			return code
		}
		fmt.Fprintf(o.verdicts(e), "watch: waiting for a change to %s (Ctrl-C stops)\n", strings.Join(files, ", "))
		changed, ok := waitForChange(ctx, files, base)
		if !ok {
			return code
		}
		fmt.Fprintf(o.verdicts(e), "\n======== run %d: %s changed ========\n", n+1, strings.Join(changed, ", "))
	}
}

// watchedFiles are the files a run depends on: the scenario, the hooks
// configuration, and every argument of a hook process's command that is
// an existing file, taken from the process's folder as the command is
// (its script, most often; "python3" names none).
func watchedFiles(o runOptions, cfg config.Config) []string {
	files := []string{o.scenario}
	for _, f := range []string{o.hooks, o.configFile} {
		if f != "" {
			files = append(files, f)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Hooks.Processes)) {
		p := cfg.Hooks.Processes[name]
		for _, arg := range p.Command {
			path := arg
			if !filepath.IsAbs(path) {
				path = filepath.Join(p.Dir, path)
			}
			if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && !slices.Contains(files, path) {
				files = append(files, path)
			}
		}
	}
	return files
}

// fileState is what a poll sees of a file; a file that is not there is
// the zero state, so that its coming back is a change too.
type fileState struct {
	mod  time.Time
	size int64
}

func snapshot(files []string) map[string]fileState {
	s := make(map[string]fileState, len(files))
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			s[f] = fileState{info.ModTime(), info.Size()}
		}
	}
	return s
}

// waitForChange polls the files until one differs from its state in base,
// and returns those that do; false when ctx ended first. Once a change is seen it waits for one
// poll without another, at most a few, so that an editor's save in several
// writes makes one run, not a run of a half-written file.
func waitForChange(ctx context.Context, files []string, base map[string]fileState) ([]string, bool) {
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	var last map[string]fileState
	settling := 0
	for {
		select {
		case <-ctx.Done():
			return nil, false
		case <-tick.C:
		}
		now := snapshot(files)
		if last != nil && (maps.Equal(now, last) || settling >= 5) {
			var changed []string
			for _, f := range files {
				if now[f] != base[f] {
					changed = append(changed, f)
				}
			}
			if len(changed) > 0 {
				return changed, true
			}
			last, settling = nil, 0 // changed and changed back
			continue
		}
		if last != nil || !maps.Equal(now, base) {
			last = now
			settling++
		}
	}
}
