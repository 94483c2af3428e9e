package hookwire

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// A hook author's go.mod must gain nothing but this module: the SDK, its
// tests included, builds on the standard library alone.
func TestTheSDKNeedsTheStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/hookwire/hookwire/sdk-go"
	own := map[string]bool{ // the package, its test variant, its external tests and the test main
		self: true, self + " [" + self + ".test]": true, self + "_test [" + self + ".test]": true, self + ".test": true,
	}
	for _, pkg := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// The module's other packages (the shell reader, whose examples
		// the SDK's tests run) hold to the same rule in their own test.
		if path, _, _ := strings.Cut(pkg, " "); !own[pkg] && !strings.HasPrefix(path, self+"/") {
			t.Errorf("the SDK depends on %s, which is not in the standard library", pkg)
		}
	}

	out, err = exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit: %v", err)
	}
	var mod struct{ Require []struct{ Path string } }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	for _, r := range mod.Require {
		t.Errorf("go.mod requires %s", r.Path)
	}
}
