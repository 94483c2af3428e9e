package wire

import (
	"os"
	"testing"
)

// whenEnded is closed once the process pid has ended, or cannot be found.
// The handle FindProcess opens is killed when the test ends, so that its
// wait ends too.
func whenEnded(t *testing.T, pid int) <-chan struct{} {
	ended := make(chan struct{})
	p, err := os.FindProcess(pid)
	if err != nil {
		close(ended)
		return ended
	}
	t.Cleanup(func() { p.Kill() })
	go func() {
		defer close(ended)
		p.Wait()
	}()
	return ended
}
