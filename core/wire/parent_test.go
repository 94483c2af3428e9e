//go:build linux || windows

package wire

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A hook ends with the process that started it, even when that process is
// killed and closes nothing: on Linux by its parent-death signal, on
// Windows as its job object's last handle closes. (macOS has neither.) The
// test binary plays all three parts: this test, the host it kills, and
// the hook the host starts.
func TestAHookEndsWithTheProcessThatStartedIt(t *testing.T) {
	const self = "-test.run=^TestAHookEndsWithTheProcessThatStartedIt$"
	switch os.Getenv("WIRE_JOB_ROLE") {
	case "hook":
		time.Sleep(time.Minute) // far longer than the test waits for its end
		return
	case "host":
		pp, err := Command{Argv: []string{os.Args[0], self}, Env: map[string]string{"WIRE_JOB_ROLE": "hook"}}.StartPiped(os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString(strconv.Itoa(pp.Cmd.Process.Pid) + "\n")
		time.Sleep(time.Minute) // until the test kills it
		return
	}
	host := exec.Command(os.Args[0], self)
	host.Env = append(os.Environ(), "WIRE_JOB_ROLE=host")
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("the host's hook pid: %q, %v", line, err)
	}
	ended := whenEnded(t, pid)
	if err := host.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	host.Wait()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the hook still runs 10s after the process that started it was killed")
	}
}
