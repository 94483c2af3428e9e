// Package filelock takes a process's exclusive lock of an open file: flock
// on Unix, LockFileEx on Windows. The bridge starts one session's server
// at a time with it, and install changes one settings file at a time.
package filelock

import (
	"os"
	"time"
)

// Wait takes f's lock, trying again every poll until it is free or wait
// has passed: false then, with no error. Closing f, or Unlock, gives it
// back; a process that dies gives it back too.
func Wait(f *os.File, wait, poll time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	for {
		taken, err := TryLock(f)
		if taken || err != nil || time.Now().After(deadline) {
			return taken, err
		}
		time.Sleep(poll)
	}
}
