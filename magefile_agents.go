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
	pinned := maps.Clone(project.Dependencies)
	// The Python agents: each one's newest release in a virtual
	// environment of its own, with the Python its pins name.
	for _, pins := range pythonAgentPins() {
		agent, err := readPythonAgentPins(pins)
		if err != nil {
			return err
		}
		version, err := installNewestPythonAgent(agent, filepath.Join(scratch, "venvs", agent.name))
		if err != nil {
			return err
		}
		pinned[agent.pkg], newest[agent.pkg] = agent.version, version
	}

	test := exec.Command("go", "test", "-count=1", "-json", "-timeout", "30m", "-run", realAgentTests, ".")
	test.Dir = "examples"
	test.Env = append(os.Environ(), "HOOKWIRE_REAL_AGENTS="+filepath.Join(scratch, "node_modules"),
		"HOOKWIRE_REAL_PYTHON_AGENTS="+filepath.Join(scratch, "venvs"))
	test.Stderr = os.Stderr
	out, _ := test.Output() // its failures are the report's
	failed, passed := testOutcomes(out)

	fmt.Println("\nagent\tpinned\tnewest")
	for _, pkg := range slices.Sorted(maps.Keys(newest)) {
		mark := ""
		if newest[pkg] != pinned[pkg] {
			mark = "\t(new)"
		}
		fmt.Printf("%s\t%s\t%s%s\n", pkg, pinned[pkg], newest[pkg], mark)
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

// pythonAgent is what a Python agent's pins say of it: its name (the pins
// file's), its own package (the line "# agent: PACKAGE"), the version they
// pin it at, and the Python it needs ("# python 3.X", the first line).
type pythonAgent struct{ name, pkg, version, python string }

func readPythonAgentPins(pins string) (pythonAgent, error) {
	data, err := os.ReadFile(pins)
	if err != nil {
		return pythonAgent{}, err
	}
	agent := pythonAgent{name: strings.TrimSuffix(filepath.Base(pins), ".txt")}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "# python "); ok && agent.python == "" {
			agent.python = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "# agent: "); ok {
			agent.pkg = strings.TrimSpace(v)
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		if name, version, ok := strings.Cut(line, "=="); ok && agent.pkg != "" && strings.EqualFold(name, agent.pkg) {
			agent.version = strings.TrimSpace(version)
		}
	}
	if agent.python == "" || agent.pkg == "" || agent.version == "" {
		return agent, fmt.Errorf("%s: want a first line \"# python 3.X\", a line \"# agent: PACKAGE\" and PACKAGE==VERSION among the pins", pins)
	}
	return agent, nil
}

// installNewestPythonAgent installs the newest release of the agent's
// package, with what pip resolves for it today, into dir, and returns its
// version.
func installNewestPythonAgent(agent pythonAgent, dir string) (string, error) {
	candidates := pythonCandidates(agent.python)
	i := slices.IndexFunc(candidates, func(path string) bool { return isPython(path, agent.python) })
	if i < 0 {
		return "", fmt.Errorf("%s needs Python %s, which is neither on PATH nor installed by pyenv", agent.name, agent.python)
	}
	python := filepath.Join(dir, "bin", "python")
	for _, args := range [][]string{
		{candidates[i], "-m", "venv", dir},
		{python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", agent.pkg},
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %s: %w\n%s", agent.name, strings.Join(args, " "), err, out)
		}
	}
	out, err := exec.Command(python, "-c", "import sys, importlib.metadata as m; print(m.version(sys.argv[1]))", agent.pkg).Output()
	if err != nil {
		return "", fmt.Errorf("%s: the version of %s: %w", agent.name, agent.pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}
