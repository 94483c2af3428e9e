// Package testbin builds the programs that a package's tests run as real
// child processes, once for the whole test run.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds pkg (a package path relative to the test's package, such as
// "./testdata/fixture") into a temporary folder, sets *bin to the program's
// path, runs the tests, removes the folder and exits. Call it from TestMain.
func Main(m *testing.M, pkg string, bin *string) {
	dir, err := os.MkdirTemp("", "hookwire-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = filepath.Join(dir, filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", *bin, pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building %s: %v\n", pkg, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
