package shell

import (
	"os/exec"
	"strings"
	"testing"
)

// The reader, its tests included, needs the standard library only: a
// guard imports it alone.
func TestTheReaderNeedsTheStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/hookwire/hookwire/sdk-go/shell"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, _, _ := strings.Cut(line, " ") // "pkg [pkg.test]" is pkg compiled for its tests
		switch pkg {
		case self, self + "_test", self + ".test":
			continue // the package, its external tests and the test main
		}
		t.Errorf("the shell reader depends on %s, which is not in the standard library", pkg)
	}
}
