//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package hookwire

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests need a POSIX system: sh, signals and dup2.

// The tests below run hooks as real processes: the test binary started
// again with HOOKWIRE_TEST_HOOK naming one of these hooks, which TestMain
// runs with Main instead of the tests.
var processHooks = map[string]func() *Hook{
	// noisy writes to stdout every way a hook's code can, and lets a child
	// read stdin.
	"noisy": func() *Hook {
		h := New("noisy")
		h.OnBeforeTool(func(ctx context.Context, call BeforeToolParams) (BeforeToolResult, error) {
			fmt.Println("fmt.Println to stdout")
			os.Stdout.WriteString("os.Stdout.WriteString\n")
			slog.InfoContext(ctx, "a log record")
			child := exec.CommandContext(ctx, "sh", "-c", `echo child writing to its inherited stdout; echo child writing to /dev/stdout > /dev/stdout; read line; echo "child read stdin: [$line]" >&2`)
			child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := child.Run(); err != nil {
				return nil, err
			}
			return Respond{Result: Text("printed")}, nil
		})
		return h
	},
	// slow answers every approval after a while, to be in flight when
	// stdin closes.
	"slow": func() *Hook {
		h := New("slow")
		h.OnApproveTool(func(ctx context.Context, req ApproveToolParams) (ApproveToolResult, error) {
			fmt.Fprintln(os.Stderr, "handling", req.Tool)
			time.Sleep(300 * time.Millisecond)
			return ApproveToolResult{Approved: ctx.Err() == nil}, nil
		})
		return h
	},
	// patient waits for shutdown, and says so in its reply.
	"patient": func() *Hook {
		h := New("patient")
		h.OnAfterLLM(func(ctx context.Context, _ AfterLLMParams) (AfterLLMResult, error) {
			fmt.Fprintln(os.Stderr, "waiting")
			<-ctx.Done()
			return AbortTurn{Reason: Ptr("cancelled: " + ctx.Err().Error())}, nil
		})
		return h
	},
	// stubborn ignores shutdown.
	"stubborn": func() *Hook {
		h := New("stubborn")
		h.OnAfterLLM(func(context.Context, AfterLLMParams) (AfterLLMResult, error) {
			fmt.Fprintln(os.Stderr, "waiting")
			select {}
		})
		return h
	},
}

func TestMain(m *testing.M) {
	if name := os.Getenv("HOOKWIRE_TEST_HOOK"); name != "" {
		processHooks[name]().Main()
		os.Exit(0)
	}
	code := m.Run()
	if cliBuild.dir != "" {
		os.RemoveAll(cliBuild.dir)
	}
	os.Exit(code)
}

// hookProcess is a test hook running as a child process.
type hookProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *logBuffer
	lines  chan string // of stderr
}

func startHook(t *testing.T, name string) *hookProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// The race detector sleeps a second before a process exits (its
	// atexit_sleep_ms): not the hook's time, which the tests measure.
	cmd.Env = append(os.Environ(), "HOOKWIRE_TEST_HOOK="+name, "GORACE=atexit_sleep_ms=0")
	// A group of its own, so that the cleanup also stops what the hook
	// started, which would otherwise keep its pipes open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 10 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW := io.Pipe()
	cmd.Stderr = errW
	p := &hookProcess{t: t, cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: &logBuffer{}, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			p.stderr.Write([]byte(sc.Text() + "\n"))
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		errW.Close()
	})
	return p
}

func (p *hookProcess) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// stdoutLines reads stdout to its end.
func (p *hookProcess) stdoutLines() []string {
	p.t.Helper()
	var lines []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			line, err := p.stdout.ReadString('\n')
			if line != "" {
				lines = append(lines, line)
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		p.t.Fatal("the hook's stdout did not end")
	}
	return lines
}

// waitStderr waits for a line of stderr that contains s.
func (p *hookProcess) waitStderr(s string) {
	p.t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case line := <-p.lines:
			if strings.Contains(line, s) {
				return
			}
		case <-timeout:
			p.t.Fatalf("%q never came on stderr: %s", s, p.stderr)
		}
	}
}

// exitCode waits for the process to end.
func (p *hookProcess) exitCode() int {
	p.t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(time.Minute):
		p.t.Fatal("the hook did not exit")
	}
	return -1
}

func TestWhatAHandlerPrintsGoesToStderrAndNothingButTheSDKReadsStdin(t *testing.T) {
	p := startHook(t, "noisy")
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"noisy","version":1,"modes":["tool"]}}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"exec","arguments":{}}}`)
	// The child reads stdin at once and gets nothing: the host's next line
	// is the SDK's.
	p.waitStderr("child read stdin: []")
	p.send(`{"jsonrpc":"2.0","id":3,"method":"hook.hello","params":{"name":"noisy","version":1,"modes":[]}}`)
	p.stdin.Close()
	lines := p.stdoutLines()
	slices.Sort(lines) // by id: 3 may overtake 2, whose handler waits for its child
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"ok":true,"name":"noisy","modes":["tool"]}}` + "\n",
		`{"jsonrpc":"2.0","id":2,"result":{"action":"respond","result":{"for_llm":"printed"}}}` + "\n",
		`{"jsonrpc":"2.0","id":3,"result":{"ok":true,"name":"noisy","modes":["tool"]}}` + "\n",
	}
	if strings.Join(lines, "") != strings.Join(want, "") {
		t.Errorf("stdout:\n%s\nwant only the replies:\n%s", strings.Join(lines, ""), strings.Join(want, ""))
	}
	if code := p.exitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	for _, s := range []string{"fmt.Println to stdout", "os.Stdout.WriteString", "a log record", "child writing to its inherited stdout", "child writing to /dev/stdout"} {
		if !strings.Contains(p.stderr.String(), s) {
			t.Errorf("%q is not on stderr:\n%s", s, p.stderr)
		}
	}
}

func TestWhenStdinClosesTheHookFinishesInFlightRequestsAndExitsZero(t *testing.T) {
	p := startHook(t, "slow")
	p.send(`{"jsonrpc":"2.0","id":5,"method":"hook.approve_tool","params":{"tool":"exec","arguments":{}}}`)
	p.waitStderr("handling exec")
	p.stdin.Close()
	lines := p.stdoutLines()
	if got := strings.Join(lines, ""); got != `{"jsonrpc":"2.0","id":5,"result":{"approved":true}}`+"\n" {
		t.Errorf("stdout %q, want the reply of the request in flight", got)
	}
	if code := p.exitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestSIGTERMAndSIGINTCancelTheHandlersAndExitZero(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			p := startHook(t, "patient")
			p.send(`{"jsonrpc":"2.0","id":3,"method":"hook.after_llm","params":{"model":"m","response":{}}}`)
			p.waitStderr("waiting")
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			lines := p.stdoutLines()
			if got := strings.Join(lines, ""); got != `{"jsonrpc":"2.0","id":3,"result":{"action":"abort_turn","reason":"cancelled: context canceled"}}`+"\n" {
				t.Errorf("stdout %q", got)
			}
			if code := p.exitCode(); code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, p.stderr)
			}
		})
	}
}

func TestASecondSignalEndsAHookWhoseHandlerIgnoresTheFirst(t *testing.T) {
	p := startHook(t, "stubborn")
	p.send(`{"jsonrpc":"2.0","id":3,"method":"hook.after_llm","params":{"model":"m","response":{}}}`)
	p.waitStderr("waiting")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
		t.Fatalf("the hook exited (%v) with a handler still running", p.cmd.ProcessState)
	case <-time.After(200 * time.Millisecond):
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGTERM {
			t.Errorf("the hook ended with %v, want killed by SIGTERM", p.cmd.ProcessState)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second SIGTERM did not end the hook")
	}
}

func TestProtectionMovesStdinAndStdoutAsideAndRestoreBringsThemBack(t *testing.T) {
	sameFile := func(fd int, other int) bool {
		var a, b syscall.Stat_t
		if err := syscall.Fstat(fd, &a); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Fstat(other, &b); err != nil {
			t.Fatal(err)
		}
		return a.Dev == b.Dev && a.Ino == b.Ino
	}
	// go test may share one pipe between stdout and stderr, and give stdin
	// /dev/null: give each descriptor a pipe of its own for the test, and
	// put the test binary's back afterwards.
	for _, fd := range []int{0, 1, 2} {
		saved, err := syscall.Dup(fd)
		if err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		end := w
		if fd == 0 {
			end = r
		}
		if err := dup2(int(end.Fd()), fd); err != nil {
			t.Fatal(err)
		}
		r.Close()
		w.Close()
		defer func() {
			dup2(saved, fd)
			syscall.Close(saved)
		}()
	}
	origIn, _ := syscall.Dup(0)
	origOut, _ := syscall.Dup(1)
	defer syscall.Close(origIn)
	defer syscall.Close(origOut)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()

	in, out, restore, err := protectStdio()
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]bool{
		"fd 1 is stderr":                     sameFile(1, 2),
		"fd 0 is /dev/null":                  sameFile(0, int(null.Fd())),
		"the protocol reads the old stdin":   sameFile(int(in.Fd()), origIn),
		"the protocol writes the old stdout": sameFile(int(out.Fd()), origOut),
	}
	restore()
	checks["after restore, fd 0 is stdin again"] = sameFile(0, origIn)
	checks["after restore, fd 1 is stdout again"] = sameFile(1, origOut)
	for what, ok := range checks {
		if !ok {
			t.Error("not so:", what)
		}
	}
}
