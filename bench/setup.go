package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// The languages, and the kinds of hook program each has: a loop written by
// hand (the floor of the language) and the least hook its SDK makes.
var langs = []string{"go", "python", "node"}

const (
	raw   = "raw"
	sdk   = "sdk"
	floor = "floor" // the Go loop that parses nothing: the host and the pipe alone
	tap   = "tap"   // the Go loop under hookwire tap, which records every line
)

// Modes of a hook program.
const (
	modeContinue = "continue"
	modeModify   = "modify"  // before_llm answers with one tool more
	modeObserve  = "observe" // counts events; tool bench_events answers the count
	// modeObserveWait is modeObserve under observe_overflow "wait": the
	// agent waits for a full queue instead of dropping.
	modeObserveWait = "observe-wait"
)

// env is what a run needs: the programs, built, and how to start them.
type env struct {
	root   string // the repository
	bin    string // this run's Go builds
	python string // the repository's virtual environment's interpreter
	node   string

	log *logCounter // the runtime's log, which must stay quiet
}

// prepare builds the Go hooks into bin, and the TypeScript SDK into its
// dist folder when its sources are newer; it checks that the Python SDK is
// installed. Nothing is installed here: go tool mage deps does that.
func prepare(root, bin string) (*env, error) {
	e := &env{root: root, bin: bin, python: filepath.Join(root, ".venv", "bin", "python"), log: &logCounter{}}
	var err error
	if e.node, err = exec.LookPath("node"); err != nil {
		return nil, err
	}
	for _, prog := range []string{"raw", "sdk", "empty"} {
		if err := build(filepath.Join(root, "bench"), "go", "build", "-o", filepath.Join(bin, prog), "./hooks/go/"+prog); err != nil {
			return nil, err
		}
	}
	if err := build(filepath.Join(root, "bench"), "go", "build", "-o", filepath.Join(bin, "hookwire"), "github.com/hookwire/hookwire/core/cmd/hookwire"); err != nil {
		return nil, err
	}
	if err := build(root, e.python, "-c", "import hookwire"); err != nil {
		return nil, fmt.Errorf("the Python SDK is not installed in .venv (run go tool mage deps): %w", err)
	}
	// pip compiles a package's modules when it installs it; the SDK here is
	// the repository's source, which under PYTHONDONTWRITEBYTECODE would be
	// compiled again at every start and measured as start-up.
	if err := build(root, e.python, "-m", "compileall", "-q", filepath.Join("sdk-python", "src")); err != nil {
		return nil, err
	}
	// Build mode is incremental: an SDK that is up to date is not rebuilt.
	tsc := filepath.Join(root, "sdk-node", "node_modules", ".bin", "tsc")
	if err := build(root, tsc, "-b", "sdk-node"); err != nil {
		return nil, fmt.Errorf("building the TypeScript SDK (go tool mage deps installs its compiler): %w", err)
	}
	return e, nil
}

func build(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// argv is the command line of a hook program in a mode.
func (e *env) argv(lang, kind, mode string) []string {
	if mode == modeObserveWait {
		mode = modeObserve // the same hook; the runtime waits for it
	}
	switch lang {
	case "go":
		if kind == sdk {
			return []string{filepath.Join(e.bin, "sdk"), mode}
		}
		argv := []string{filepath.Join(e.bin, "raw")}
		if kind == tap {
			return append([]string{filepath.Join(e.bin, "hookwire"), "tap", "--out", filepath.Join(e.bin, "tap.jsonl"), "--"}, argv...)
		}
		if kind == floor {
			argv = append(argv, "-noparse")
		}
		if mode == modeModify {
			argv = append(argv, "-modify")
		}
		return argv
	case "python":
		return []string{e.python, filepath.Join(e.root, "bench", "hooks", "python", kind+".py"), mode}
	default:
		return []string{e.node, filepath.Join(e.root, "bench", "hooks", "node", kind+".mjs"), mode}
	}
}

// bare is the command of the language's bare interpreter, or of an empty
// Go program: the floor of a hook's start-up.
func (e *env) bare(lang string) []string {
	switch lang {
	case "go":
		return []string{filepath.Join(e.bin, "empty")}
	case "python":
		return []string{e.python, "-c", "pass"}
	default:
		return []string{e.node, "-e", "0"}
	}
}

// hook is one hook process, run by a runtime of its own, so that each
// contender's chain holds it alone.
type hook struct {
	id               string // such as "python-sdk-modify"
	lang, kind, mode string
	rt               *runtime.Runtime
	pid              int

	emitted atomic.Int64 // observe: events the agent raised
}

// start runs a hook program under a runtime of its own. Every call fails
// closed, so that a failure shows as a decision the caller does not expect,
// never as a silent continue; and a crashed hook stays down.
func (e *env) start(ctx context.Context, lang, kind, mode string) (*hook, error) {
	id := lang + "-" + kind
	if mode != modeContinue {
		id += "-" + mode
	}
	return e.startWith(ctx, lang, kind, mode, id, runtime.Options{Logger: e.log.logger(), NoSessionEvents: !observes(mode)})
}

// startWith starts a hook as start does, under the id and with the
// runtime's options given.
func (e *env) startWith(ctx context.Context, lang, kind, mode, id string, opts runtime.Options) (*hook, error) {
	h := &hook{lang: lang, kind: kind, mode: mode, id: id}
	p := runtime.ProcessConfig{
		Enabled:       true,
		Command:       e.argv(lang, kind, mode),
		Env:           map[string]string{"HOOKWIRE_BENCH": h.id},
		Intercept:     []string{"before_llm", "before_tool"},
		TimeoutMS:     120_000,
		FailurePolicy: map[string]string{"before_llm": "closed", "before_tool": "closed"},
		Restart:       runtime.RestartConfig{Enabled: new(bool)},
	}
	if observes(mode) {
		p.Intercept, p.Observe = []string{"before_tool"}, []string{"*"}
	}
	if mode == modeObserveWait {
		p.ObserveOverflow = runtime.OverflowWait
	}
	cfg := runtime.Config{Hooks: runtime.HooksConfig{Enabled: true, Processes: map[string]runtime.ProcessConfig{h.id: p}}}
	rt, err := runtime.New(cfg, opts)
	if err != nil {
		return nil, err
	}
	if err := rt.Start(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", h.id, err)
	}
	h.rt = rt
	if h.pid, err = childWithTag(h.id); err != nil {
		rt.Close()
		return nil, err
	}
	return h, nil
}

func observes(mode string) bool { return mode == modeObserve || mode == modeObserveWait }

// childWithTag finds the process this program started with
// HOOKWIRE_BENCH=tag in its environment: the runtime does not tell the pids
// of its hooks, and memory is read from /proc by pid.
func childWithTag(tag string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	want := []byte("HOOKWIRE_BENCH=" + tag)
	self := strconv.Itoa(os.Getpid())
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: fields count from the last ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 2 || fields[1] != self {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err == nil && slices.ContainsFunc(bytes.Split(environ, []byte{0}), func(v []byte) bool { return bytes.Equal(v, want) }) {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no child process has HOOKWIRE_BENCH=%s", tag)
}

// peakRSS is the peak resident set size (VmHWM) of a process, in bytes.
func peakRSS(pid string) (int64, error) {
	status, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/" + pid + "/status")
}

// cpuTime is the CPU time a process has had so far, all its threads
// together, in nanoseconds (the schedstat of each of its threads): unlike
// a round trip's time, it does not depend on where the scheduler puts the
// process.
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that has just ended
		}
		f, _, _ := strings.Cut(string(b), " ")
		ns, _ := strconv.ParseInt(f, 10, 64)
		total += time.Duration(ns)
	}
	return total
}

// logCounter keeps the runtime's warnings, which a run reports, and drops
// the rest: the hooks' stderr is logged at info level.
type logCounter struct {
	mu       sync.Mutex
	warnings map[string]int
}

func (l *logCounter) logger() *slog.Logger { return slog.New(l) }

func (l *logCounter) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn
}
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCounter) WithGroup(string) slog.Handler      { return l }

func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.warnings == nil {
		l.warnings = map[string]int{}
	}
	l.warnings[r.Message]++
	return nil
}

func (l *logCounter) counts() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for k, v := range l.warnings {
		out[k] = v
	}
	return out
}

// toolCall is the hook.before_tool of every round-trip: as a host sends it.
func toolCall() protocol.BeforeToolParams {
	return protocol.BeforeToolParams{
		Meta: &protocol.Meta{
			AgentID: ptr("agent-1"), TurnID: ptr("turn-1"), ParentTurnID: ptr(""),
			SessionKey: ptr("session-1"), Iteration: ptr(1), Source: ptr("agent"),
		},
		Context: &protocol.TurnContext{Inbound: &protocol.InboundContext{
			Channel: ptr("cli"), ChatID: ptr("direct"), SenderID: ptr("user"),
		}},
		Tool:      "read_file",
		Arguments: map[string]any{"path": "notes/2026-05-01.md"},
		Channel:   ptr("cli"),
		ChatID:    ptr("direct"),
	}
}

func ptr[T any](v T) *T { return &v }
