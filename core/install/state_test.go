package install

import (
	"os"
	"testing"
)

// TestMain keeps the tests' state folder out of the user's: each test
// binary has its own XDG_STATE_HOME.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookwire-state")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
