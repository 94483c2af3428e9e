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
func Main(m *testing.M, pkg string, bin *string) { MainEach(m, map[string]*string{pkg: bin}) }

// MainEach is Main for several programs: each package of bins is built and
// its path set.
func MainEach(m *testing.M, bins map[string]*string) {
	dir, err := os.MkdirTemp("", "hookwire-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for pkg, bin := range bins {
		abs, _ := filepath.Abs(pkg)
		*bin = filepath.Join(dir, filepath.Base(abs))
		build := exec.Command("go", "build", "-o", *bin, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n", pkg, err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
