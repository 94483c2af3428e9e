//go:build mage

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/magefile/mage/mg"
)

// realAgents is the npm project of the agents the real-agent tests run.
const realAgents = "examples/realagents"

// realAgentTests are the tests that run the real agents.
const realAgentTests = "Real"

// NewestAgents runs the real-agent tests against the newest release of each
// agent pinned in examples/realagents, installed in a scratch folder (the
// pins stay as they are), and reports each agent's pinned and newest
// version and the tests that failed: a new release is checked in minutes,
// before its pin moves.
func NewestAgents() error {
	mg.Deps(Deps)
	var project struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	data, err := os.ReadFile(filepath.Join(realAgents, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &project); err != nil {
		return fmt.Errorf("%s/package.json: %w", realAgents, err)
	}
	newest := map[string]string{}
	for _, pkg := range slices.Sorted(maps.Keys(project.Dependencies)) {
		out, err := exec.Command("npm", "view", pkg, "version").Output()
		if err != nil {
			return fmt.Errorf("npm view %s version: %w", pkg, err)
		}
		newest[pkg] = strings.TrimSpace(string(out))
	}
	scratch, err := os.MkdirTemp("", "hookwire-newest-agents-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	manifest, _ := json.MarshalIndent(map[string]any{"name": "hookwire-newest-agents", "private": true, "dependencies": newest}, "", "  ")
	if err := os.WriteFile(filepath.Join(scratch, "package.json"), manifest, 0o644); err != nil {
		return err
	}
	if err := run(scratch, "npm", "install", "--no-audit", "--no-fund"); err != nil {
		return err
	}

	test := exec.Command("go", "test", "-count=1", "-json", "-timeout", "30m", "-run", realAgentTests, ".")
	test.Dir = "examples"
	test.Env = append(os.Environ(), "HOOKWIRE_REAL_AGENTS="+filepath.Join(scratch, "node_modules"))
	test.Stderr = os.Stderr
	out, _ := test.Output() // its failures are the report's
	failed, passed := testOutcomes(out)

	fmt.Println("\nagent\tpinned\tnewest")
	for _, pkg := range slices.Sorted(maps.Keys(newest)) {
		mark := ""
		if newest[pkg] != project.Dependencies[pkg] {
			mark = "\t(new)"
		}
		fmt.Printf("%s\t%s\t%s%s\n", pkg, project.Dependencies[pkg], newest[pkg], mark)
	}
	fmt.Printf("\nreal-agent tests against the newest releases: %d passed, %d failed\n", passed, len(failed))
	for _, name := range failed {
		fmt.Println("  FAIL", name)
	}
	if len(failed) > 0 || passed == 0 {
		return fmt.Errorf("the newest releases fail %d real-agent tests (above); the pins stay until they pass", len(failed))
	}
	return nil
}

// testOutcomes reads go test -json: the tests (and subtests) that failed,
// in order, and how many passed.
func testOutcomes(out []byte) (failed []string, passed int) {
	lines := bufio.NewScanner(bytes.NewReader(out))
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(lines.Bytes(), &ev) != nil || ev.Test == "" {
			continue
		}
		switch ev.Action {
		case "fail":
			failed = append(failed, ev.Test)
		case "pass":
			passed++
		}
	}
	return failed, passed
}
