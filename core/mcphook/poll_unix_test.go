//go:build unix

package mcphook

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// blockingPipe is a pipe in blocking mode, as an agent gives its MCP
// server's stdin (os.Pipe's are non-blocking).
func blockingPipe(t *testing.T) (r, w *os.File) {
	var fds [2]int
	require.NoError(t, unix.Pipe(fds[:])) // blocking; Pipe2 is Linux's alone
	r, w = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "agent")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func nonblocking(t *testing.T, f *os.File) bool {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	require.NoError(t, err)
	return flags&unix.O_NONBLOCK != 0
}

func TestPolledReadsABlockingPipeThroughThePoller(t *testing.T) {
	stdin, agent := blockingPipe(t)
	in, done := Polled(stdin)
	polled, ok := in.(*os.File)
	require.True(t, ok)
	require.NotSame(t, stdin, polled)
	// Only a file the runtime polls takes a deadline.
	require.NoError(t, polled.SetReadDeadline(time.Now().Add(50*time.Millisecond)))
	_, err := polled.Read(make([]byte, 1))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded, "a read with nothing to read waits for the poller, not in read(2)")
	require.NoError(t, polled.SetReadDeadline(time.Time{}))
	_, err = agent.WriteString("{}\n")
	require.NoError(t, err)
	line := make([]byte, 3)
	_, err = io.ReadFull(polled, line)
	require.NoError(t, err)
	require.Equal(t, "{}\n", string(line))

	done()
	_, err = polled.Read(line)
	require.ErrorIs(t, err, os.ErrClosed, "done closes the copy")
	require.False(t, nonblocking(t, stdin), "done puts the pipe back in blocking mode")
	_, err = agent.WriteString("x")
	require.NoError(t, err)
	_, err = stdin.Read(line[:1])
	require.NoError(t, err, "the file given is still open")
}

func TestPolledLeavesWhatItCannotPollAsItIs(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "input"))
	require.NoError(t, err)
	defer file.Close()
	polledAlready, _, err := os.Pipe() // non-blocking: os polls it itself
	require.NoError(t, err)
	defer polledAlready.Close()
	for name, r := range map[string]io.Reader{"a reader": bytes.NewReader(nil), "a file": file, "a non-blocking pipe": polledAlready} {
		in, done := Polled(r)
		require.Equal(t, r, in, name)
		done()
	}
	require.False(t, errors.Is(file.Close(), os.ErrClosed), "done left the file open")
}
