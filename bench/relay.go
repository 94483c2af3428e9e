package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// relayEnv, when set in the bench's own environment, makes it a bare line
// relay instead (main): the least a warm server can be, a process between
// the agent and a running hook that passes each line on and its answer
// back, with no protocol.
const relayEnv = "HOOKWIRE_BENCH_RELAY"

// relayIfAsked runs the relay and exits, where the bench (or its test
// binary, which warmFloor starts as well) was started as one.
func relayIfAsked() {
	if os.Getenv(relayEnv) == "" {
		return
	}
	if err := relay(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench relay:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// relay starts argv and passes each line of stdin to it and its one line
// of answer to stdout, until stdin ends.
func relay(argv []string) error {
	cmd, in, out, err := startPiped(argv)
	if err != nil {
		return err
	}
	defer cmd.Wait()
	defer in.Close()
	stdin := bufio.NewReaderSize(os.Stdin, 64<<10)
	for {
		line, err := stdin.ReadSlice('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := in.Write(line); err != nil {
			return err
		}
		reply, err := out.ReadSlice('\n')
		if err != nil {
			return err
		}
		if _, err := os.Stdout.Write(reply); err != nil {
			return err
		}
	}
}

// warmFloor is the floor of a warm hook on this machine: the bench asks a
// relay process (itself, as relay) which asks a hand-written Python hook
// loop (raw.py), one line each way: the processes and pipes of
// `hookwire bridge --mcp` and its hook, with nothing else. What a warm
// call costs above it is hookwire's; what it costs up to it is waking
// three processes.
func (b *bench) warmFloor() (*contender, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(self, b.env.python, filepath.Join(b.env.root, "bench", "hooks", "python", "raw.py"))
	cmd.Env = append(os.Environ(), relayEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	out := bufio.NewReader(stdout)
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{"session":"warm","tool":{"name":"Bash","arguments":{"command":"rm -rf /"}}}}` + "\n")
	floor := &contender{id: "warm-floor", label: "warm floor: a bare relay process and a hand-written Python hook loop, a line each way", do: func() error {
		if _, err := in.Write(line); err != nil {
			return err
		}
		reply, err := out.ReadSlice('\n')
		if err != nil {
			return err
		}
		if !bytes.Contains(reply, []byte(`"continue"`)) {
			return fmt.Errorf("the relayed hook answered %.200s", reply)
		}
		return nil
	}}
	stop := func() {
		in.Close()
		cmd.Wait()
	}
	return floor, stop, nil
}
