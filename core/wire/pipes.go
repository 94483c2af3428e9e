package wire

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Piped is a command started with pipes: the ends that are the caller's.
type Piped struct {
	Cmd *exec.Cmd
	// Stdin is the write end of the command's stdin; Stdout the read end of
	// its stdout; Stderr the read end of its stderr, nil when the caller
	// gave one.
	Stdin, Stdout, Stderr *os.File
	// release ends what is left of the command's processes where they
	// were tied to this process after the start (tieToParent); closing
	// this process does too.
	release func()
}

// StartPiped starts the command (see Exec) with pipes for its stdin and
// stdout, and for its stderr unless stderr is given. They are pipes of our
// own rather than exec's, so that Wait returns when the command exits, even
// while a child it forked still holds its stdout or stderr.
func (cmd Command) StartPiped(stderr io.Writer) (Piped, error) {
	if len(cmd.Argv) == 0 || cmd.Argv[0] == "" {
		return Piped{}, errors.New("no command")
	}
	var mine, theirs [3]*os.File // stdin, stdout, stderr: our ends and the command's
	closeAll := func(ends [3]*os.File) {
		for _, f := range ends {
			if f != nil {
				f.Close()
			}
		}
	}
	n := 3
	if stderr != nil {
		n = 2
	}
	for i := range n {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(mine)
			closeAll(theirs)
			return Piped{}, err
		}
		mine[i], theirs[i] = r, w
		if i == 0 { // the command reads its stdin
			mine[i], theirs[i] = w, r
		}
	}
	c := cmd.Exec()
	c.Stdin, c.Stdout, c.Stderr = theirs[0], theirs[1], stderr
	if stderr == nil {
		c.Stderr = theirs[2]
	}
	err := c.Start()
	closeAll(theirs)
	if err != nil {
		closeAll(mine)
		return Piped{}, err
	}
	// A hook must not outlive this process: one that did would run on
	// with no one to ask it anything or stop it.
	release, err := tieToParent(c.Process)
	if err != nil {
		c.Process.Kill()
		c.Wait()
		closeAll(mine)
		return Piped{}, fmt.Errorf("tying the command to this process: %w", err)
	}
	return Piped{Cmd: c, Stdin: mine[0], Stdout: mine[1], Stderr: mine[2], release: release}, nil
}
