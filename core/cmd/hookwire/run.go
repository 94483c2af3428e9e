package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/hookwire/hookwire/core/agent"
	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/internal/cli"
	"github.com/hookwire/hookwire/core/runtime"
	"github.com/hookwire/hookwire/core/skillhooks"
	"github.com/hookwire/hookwire/core/transcript"
	"github.com/hookwire/hookwire/core/wiretap"
)

var runCommand = command{
	name: "run",
	args: "[--hooks FILE] [--config FILE] [--host NAME] [--json] [--trace FILE] SCENARIO",
	summary: `Plays the scenario's agent turns: each user prompt, then its scripted LLM
replies, in its session, with the built-in tools the scenario names (echo_text
and read_file unless it says) and the hooks of the hooks configuration. Prints
a transcript of every LLM round, tool call, hook call, decision and timing on
stdout; the hooks' stderr and the runtime's log go to stderr. Exits 1 when a
turn fails (not when a hook aborts it).`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		hooks := fs.String("hooks", "", "hooks configuration `file` in hookwire's format; with --config, hookwire's settings added to PicoClaw's")
		configFile := fs.String("config", "", "PicoClaw's configuration `file` (config.json), whole: its hooks section is read as PicoClaw reads it")
		hostName := fs.String("host", "reference", "the host to behave as: reference (the protocol documents), picoclaw (PicoClaw as its code behaves), or an agent behind hookwire-bridge: claude-code, gemini-cli, codex-cli, copilot-cli, cursor, factory-droid, qwen-code")
		jsonl := fs.Bool("json", false, "print the transcript as JSON Lines; only duration_ms varies between runs")
		trace := fs.String("trace", "", "write every line exchanged with hook processes, both directions, to `file` as JSON Lines; - writes them to stderr for people, > host to hook, < hook to host")
		events := fs.Bool("events", false, "show runtime events in the text transcript")
		messages := fs.Bool("messages", false, "show the messages of each LLM request, as hooks left them")
		return func(args []string, e env) int {
			if len(args) != 1 {
				return e.fail(exitUsage, "run", errors.New("need exactly one scenario file (see hookwire run --help)"))
			}
			h, err := host.Parse(*hostName)
			if err != nil {
				return e.fail(exitUsage, "run", err)
			}
			cfg, err := loadHooks(*hooks, *configFile, h)
			if err != nil {
				return e.fail(exitFail, "run", err)
			}
			if note := config.NotCheckedNote(cfg.NotChecked); note != "" {
				fmt.Fprintf(e.stderr, "hookwire run: %s: %s\n", *configFile, note)
			}
			return play(args[0], cfg, h, *jsonl, *events, *messages, *trace, e)
		}
	},
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

func play(scenarioPath string, cfg config.Config, h *host.Host, jsonl, events, messages bool, tracePath string, e env) int {
	scenario, err := agent.LoadScenario(scenarioPath)
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	tr := transcript.New(e.stdout, jsonl)
	tr.Events, tr.Messages = events, messages
	opts := runtime.Options{Logger: slog.New(cli.NewLogHandler(e.stderr)), OnCall: tr.Call, OnHookDown: tr.HookDown, Host: h,
		Builtins: map[string]runtime.Builtin{skillhooks.Name: skillhooks.Builtin}}
	if tracePath == "-" {
		opts.Trace = wiretap.Live(e.stderr, wiretap.IsTerminal(e.stderr))
	} else if tracePath != "" {
		f, err := os.Create(tracePath)
		if err != nil {
			return e.fail(exitFail, "run", err)
		}
		defer f.Close()
		opts.Trace = traceTo(f)
	}
	rt, err := runtime.New(cfg, opts)
	if err != nil {
		return e.fail(exitFail, "run", err)
	}
	// Stop the hooks on Ctrl-C too: none may outlive the run.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := rt.Start(ctx); err != nil {
		return e.fail(exitFail, "run", err)
	}
	defer rt.Close()
	tr.Hooks(rt.Hooks())

	a := scenario.Agent()
	a.Hooks, a.OnStep = rt, tr.Step
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
	if turnErr != nil {
		return e.fail(exitFail, "run", turnErr)
	}
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
