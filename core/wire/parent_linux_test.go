package wire

import (
	"testing"
	"time"
)

// whenEnded is closed once no process of the group pid leads runs (a
// zombie has ended), or the test has ended. The group is killed when the
// test ends, in case it still runs.
func whenEnded(t *testing.T, pid int) <-chan struct{} {
	t.Cleanup(func() { killGroup(pid) })
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for groupAlive(pid) && t.Context().Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return ended
}
