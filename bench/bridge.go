package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// agentForms are the agents of the bridge but Claude Code, each with its
// event for a shell command, as it writes it, the event that ends its
// session, and a part of its deny.
var agentForms = []struct {
	agent, deny string
	event       func(session, command string) map[string]any
	end         func(session string) map[string]any
}{
	{"gemini-cli", `"decision":"deny"`, claudeLike("BeforeTool", "run_shell_command"), claudeEnd("SessionEnd")},
	{"codex-cli", `"permissionDecision":"deny"`, claudeLike("PreToolUse", "Bash"), claudeEnd("SessionEnd")},
	{"factory-droid", `"permissionDecision":"deny"`, claudeLike("PreToolUse", "Execute"), claudeEnd("SessionEnd")},
	{"qwen-code", `"permissionDecision":"deny"`, claudeLike("PreToolUse", "run_shell_command"), claudeEnd("SessionEnd")},
	{"copilot-cli", `"permissionDecision":"deny"`,
		func(session, command string) map[string]any {
			return map[string]any{"sessionId": session, "timestamp": 0, "cwd": "/", "toolName": "bash", "toolArgs": map[string]any{"command": command}}
		},
		func(session string) map[string]any {
			return map[string]any{"sessionId": session, "cwd": "/", "reason": "complete"}
		}},
	{"cursor", `"permission":"deny"`,
		func(session, command string) map[string]any {
			return map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": session, "command": command, "cwd": "/"}
		},
		func(session string) map[string]any {
			return map[string]any{"hook_event_name": "sessionEnd", "conversation_id": session}
		}},
}

// claudeLike is a shell event of an agent that writes Claude Code's members.
func claudeLike(name, tool string) func(session, command string) map[string]any {
	return func(session, command string) map[string]any {
		return map[string]any{"session_id": session, "hook_event_name": name, "cwd": "/", "tool_name": tool, "tool_input": map[string]any{"command": command}}
	}
}

func claudeEnd(name string) func(session string) map[string]any {
	return func(session string) map[string]any {
		return map[string]any{"session_id": session, "hook_event_name": name, "cwd": "/"}
	}
}

// bridge times one Claude Code PreToolUse event, as the agent spends it:
// from starting the hook command to its exit, with the decision read. The
// contenders check the same thing (deny rm -rf): the Python SDK's guard
// behind a warm hookwire-bridge (its session's hook already running), the
// same through `hookwire bridge` (the whole CLI, which starts slower), and
// a plain Python script started for the event, as command hooks are
// written. The first event of a session, which starts the hook, is timed
// apart; so is a warm event in the form of each other agent, and Claude
// Code's mcp_tool hooks served by `hookwire bridge --mcp` (bridge_mcp.go).
func (b *bench) bridge() error {
	cli := filepath.Join(b.env.bin, "hookwire")
	fast := filepath.Join(b.env.bin, "hookwire-bridge")
	// Built as the release files are (go tool mage dist): static and
	// stripped, which saves a program started per event the dynamic
	// loader's work.
	for _, bin := range []string{cli, fast} {
		if err := build(filepath.Join(b.env.root, "core"), "env", "CGO_ENABLED=0", "go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/"+filepath.Base(bin)); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "hookwire-bench-bridge")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	guard := []string{b.env.python, filepath.Join(b.env.root, "bench", "hooks", "python", "guard_sdk.py")}
	script := []string{b.env.python, filepath.Join(b.env.root, "bench", "hooks", "python", "guard_command.py")}
	event := func(session, command string) []byte {
		ev, _ := json.Marshal(map[string]any{
			"session_id": session, "hook_event_name": "PreToolUse", "cwd": dir, "transcript_path": "",
			"tool_name": "Bash", "tool_input": map[string]any{"command": command},
		})
		return ev
	}
	runAs := func(deny string, argv []string, ev []byte) error {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(ev)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
		}
		if !bytes.Contains(out, []byte(deny)) {
			return fmt.Errorf("%s did not deny rm -rf: %s", strings.Join(argv, " "), out)
		}
		return nil
	}
	runEvent := func(argv []string, ev []byte) error { return runAs(`"permissionDecision":"deny"`, argv, ev) }
	bridgeArgv := append([]string{fast, "--dir", dir, "claude-code", "--"}, guard...)
	cliArgv := append([]string{cli, "bridge", "--dir", dir, "claude-code", "--"}, guard...)
	// endSession ends a session of the bridge run as argv: hookwire-bridge
	// and the whole CLI start servers of their own for the same session
	// (their flags differ), and one left running would weigh on the runs
	// that follow until its idle time.
	endSession := func(argv []string, session string) {
		ev, _ := json.Marshal(map[string]any{"session_id": session, "hook_event_name": "SessionEnd", "cwd": dir})
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(ev)
		cmd.Run()
	}
	sessions := 0
	first := &contender{id: "bridge-first", label: "hookwire-bridge, first event of a session (starts the hook)", timed: func() (time.Duration, error) {
		sessions++
		session := fmt.Sprintf("first-%d", sessions)
		defer endSession(bridgeArgv, session)
		start := time.Now()
		err := runEvent(bridgeArgv, event(session, "rm -rf /"))
		return time.Since(start), err
	}}
	warm := &contender{id: "bridge-warm", label: "hookwire-bridge, warm: the session's hook is running", do: func() error {
		return runEvent(bridgeArgv, event("warm", "rm -rf /"))
	}}
	warmCLI := &contender{id: "bridge-warm-cli", label: "hookwire bridge (the whole CLI), warm", do: func() error {
		return runEvent(cliArgv, event("warm", "rm -rf /"))
	}}
	plain := &contender{id: "command-python", label: "a plain Python command hook, a process per event", do: func() error {
		return runEvent(script, event("plain", "rm -rf /"))
	}}
	defer endSession(bridgeArgv, "warm")
	defer endSession(cliArgv, "warm")
	mcpFirst, mcpCold, mcpWarm, stopMCP, err := mcpContenders(append([]string{cli, "bridge", "--mcp", "claude-code", "--"}, guard...))
	if err != nil {
		return err
	}
	defer stopMCP()
	floor, stopFloor, err := b.warmFloor()
	if err != nil {
		return err
	}
	defer stopFloor()
	pages := touchPages()
	steady := []*contender{warm, warmCLI, plain, mcpWarm, floor}
	for _, f := range agentForms {
		argv := append([]string{fast, "--dir", dir, f.agent, "--"}, guard...)
		ev, _ := json.Marshal(f.event("warm", "rm -rf /"))
		end, _ := json.Marshal(f.end("warm"))
		defer func() {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdin = bytes.NewReader(end)
			cmd.Run()
		}()
		steady = append(steady, &contender{id: "bridge-agent-" + f.agent, label: "hookwire-bridge, warm, " + f.agent + "'s form", do: func() error {
			return runAs(f.deny, argv, ev)
		}})
	}
	starts := []*contender{first, mcpFirst, mcpCold}
	plainIdle := afterIdle(plain, b.cfg.IdleGap)
	idle := []*contender{plainIdle, afterIdle(mcpWarm, b.cfg.IdleGap), afterIdle(floor, b.cfg.IdleGap)}
	memory := []*contender{pages, afterIdle(pages, b.cfg.IdleGap)}
	n := max(10, b.cfg.Startups)
	fmt.Fprintf(b.progress, "  %d contenders, %d events each\n", len(starts)+len(steady)+len(idle)+len(memory), n)
	// Each set is measured apart, its contenders in turn: the machine
	// idles in the first events' sessionLead and before each after-idle
	// event, and whatever came next ran on a machine waking up, where a
	// warm event took 3.5 times as long and a command hook 1.5 times
	// (BENCHMARKS.md, section 8).
	b.measure(starts, 1, 1, n, n)
	b.measure(steady, 1, 1, n, n)
	b.measure(idle, 1, 1, n, n)
	b.measure(memory, 1, 1, n, n)
	rows := func(cs []*contender, base *contender) {
		baseMedian := summarize(base.samples).Median
		for _, c := range cs {
			r := row{ID: c.id, Label: c.label, summary: summarize(c.samples)}
			if c != base {
				r.VsLoop = ratio(r.Median, baseMedian)
			}
			b.res.Bridge = append(b.res.Bridge, r)
		}
	}
	rows(starts, plain)
	rows(steady, plain)
	rows(idle, plainIdle)
	rows(memory, pages)
	return nil
}

// afterIdle is c's event asked after the machine idled for gap, as an
// agent asks its hook after its model's answer, and timed from the event.
func afterIdle(c *contender, gap time.Duration) *contender {
	return &contender{id: c.id + "-idle", label: c.label + ", after " + gap.String() + " idle", timed: func() (time.Duration, error) {
		time.Sleep(gap)
		start := time.Now()
		err := c.do()
		return time.Since(start), err
	}}
}

// touchPages reads a byte from each page of a block already in memory:
// no event, the machine's memory alone, for the after-idle figures. On a
// virtual machine a page left alone can cost far more to touch again
// (BENCHMARKS.md, section 8), and every event touches pages.
func touchPages() *contender {
	block := make([]byte, 64<<20)
	for i := range block {
		block[i] = 1
	}
	var sum int
	return &contender{id: "pages", label: "no event: a byte read from each of the 16,384 pages of 64 MiB in memory", do: func() error {
		for i := 0; i < len(block); i += 4096 {
			sum += int(block[i])
		}
		if sum == 0 {
			return fmt.Errorf("the block reads as zeros")
		}
		return nil
	}}
}
