//go:build mage

// The Python test matrix: the SDK's and the Python examples' suites on
// every supported interpreter this machine has.

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/magefile/mage/mg"
)

// supportedPythons are the Python versions the SDK supports, oldest first:
// sdk-python/pyproject.toml's classifiers and its README list the same.
var supportedPythons = []string{"3.9", "3.10", "3.11", "3.12", "3.13"}

// requirePythonsEnv, when set (as .ci/run does), makes the test fail unless
// the oldest and the newest supported Python are both found.
const requirePythonsEnv = "HOOKWIRE_REQUIRE_PYTHONS"

// python is one interpreter found: its version (3.X) and its path.
type python struct{ version, path string }

// findPythons finds an interpreter of each supported version: pythonX.Y on
// PATH, else one that pyenv installed; it returns those found and the
// versions it did not find.
func findPythons() (found []python, missing []string) {
	for _, v := range supportedPythons {
		i := slices.IndexFunc(pythonCandidates(v), func(path string) bool { return isPython(path, v) })
		if i < 0 {
			missing = append(missing, v)
			continue
		}
		found = append(found, python{v, pythonCandidates(v)[i]})
	}
	return found, missing
}

// pythonCandidates are the programs that may be Python version v, the
// newest patch release first.
func pythonCandidates(v string) []string {
	candidates := []string{"python" + v}
	root, err := exec.Command("pyenv", "root").Output()
	if err != nil {
		return candidates
	}
	out, _ := exec.Command("pyenv", "versions", "--bare").Output()
	installed := strings.Fields(string(out))
	slices.Reverse(installed)
	for _, name := range installed {
		if strings.HasPrefix(name, v+".") {
			candidates = append(candidates, filepath.Join(strings.TrimSpace(string(root)), "versions", name, "bin", "python"+v))
		}
	}
	return candidates
}

// isPython is true when path runs and is Python version v (a pyenv shim
// is on PATH even for versions it will not run).
func isPython(path, v string) bool {
	out, err := exec.Command(path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])").Output()
	return err == nil && strings.TrimSpace(string(out)) == v
}

// requirePythons fails, naming them, when the oldest or the newest
// supported version is missing and the environment asks for both.
func requirePythons(missing []string) error {
	if os.Getenv(requirePythonsEnv) == "" {
		return nil
	}
	ends := []string{supportedPythons[0], supportedPythons[len(supportedPythons)-1]}
	var absent []string
	for _, v := range ends {
		if slices.Contains(missing, v) {
			absent = append(absent, "python"+v)
		}
	}
	if len(absent) > 0 {
		return fmt.Errorf("the Python tests need the oldest and the newest supported Python (%s); not found: %s",
			strings.Join(ends, " and "), strings.Join(absent, ", "))
	}
	return nil
}

// pythonVenv makes, or brings up to date, the virtual environment of one
// interpreter in .venvs/3.X: the pinned dev tools and sdk-python
// (editable). It returns the environment's bin folder.
func pythonVenv(p python) (string, error) {
	dir, _ := filepath.Abs(filepath.Join(".venvs", p.version))
	bin := filepath.Join(dir, "bin")
	if runtime.GOOS == "windows" {
		bin = filepath.Join(dir, "Scripts")
	}
	stamp := filepath.Join(dir, ".installed")
	if !olderThan(stamp, "requirements-dev.txt") && !olderThan(stamp, "sdk-python/pyproject.toml") {
		return bin, nil
	}
	for _, args := range [][]string{
		{p.path, "-m", "venv", "--clear", dir},
		uvInstall(filepath.Join(bin, "python"), "-r", "requirements-dev.txt", "-e", "sdk-python"),
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("python %s: %s: %w\n%s", p.version, strings.Join(args, " "), err, out)
		}
	}
	return bin, os.WriteFile(stamp, nil, 0o644)
}

// pythonSuites are the folders whose pytest suites run on every interpreter.
func pythonSuites() []string {
	var suites []string
	for _, dir := range append([]string{"sdk-python"}, pythonExamples()...) {
		if len(glob(dir+"/test_*.py")) > 0 || len(glob(dir+"/tests")) > 0 {
			suites = append(suites, dir)
		}
	}
	return suites
}

// testPythons runs every Python suite on every interpreter found, each in
// its own virtual environment, several at once, and says
// which interpreters it ran them on. The environment's bin folder comes
// first on PATH, so that the hooks the examples start as python3 run on
// that interpreter too.
func testPythons(found []python) error {
	// Twice the CPUs: a suite spends most of its time waiting for the hook processes it starts.
	slots := make(chan struct{}, 2*runtime.NumCPU())
	var (
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
	)
	report := func(header string, out []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Println(header)
		if err != nil {
			os.Stdout.Write(out)
			failures = append(failures, header)
		}
	}
	start := time.Now()
	for _, p := range found {
		wg.Go(func() {
			slots <- struct{}{}
			bin, err := pythonVenv(p)
			<-slots
			if err != nil {
				report(fmt.Sprintf("python %s: no virtual environment", p.version), []byte(err.Error()+"\n"), err)
				return
			}
			for _, dir := range pythonSuites() {
				slots <- struct{}{}
				t := time.Now()
				cmd := exec.Command(filepath.Join(bin, "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider")
				cmd.Dir = dir
				venv := filepath.Dir(bin)
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "VIRTUAL_ENV="+venv,
					// mypy's cache, of a suite that type-checks, is not shared by suites running at once.
					"MYPY_CACHE_DIR="+filepath.Join(venv, "mypy-cache", filepath.Base(dir)))
				out, err := cmd.CombinedOutput()
				<-slots
				status := "ok"
				if err != nil {
					status = "FAILED: " + err.Error()
				}
				report(fmt.Sprintf("python %s %s: %s (%.1fs)", p.version, dir, status, time.Since(t).Seconds()), out, err)
			}
		})
	}
	wg.Wait()
	versions := make([]string, len(found))
	for i, p := range found {
		versions[i] = p.version
	}
	fmt.Printf("python: the SDK's and the examples' suites ran on Python %s in %.0fs\n",
		strings.Join(versions, ", "), time.Since(start).Seconds())
	if len(failures) > 0 {
		return errors.New("python suites failed:\n  " + strings.Join(failures, "\n  "))
	}
	return nil
}

// pythonMatrix finds the interpreters, says which ones are missing, and
// checks that those the environment requires are there.
func pythonMatrix() ([]python, error) {
	found, missing := findPythons()
	if len(missing) > 0 {
		fmt.Printf("python: not found, not tested: %s\n", strings.Join(missing, ", "))
	}
	if err := requirePythons(missing); err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, errors.New("python: no supported Python found (" + strings.Join(supportedPythons, ", ") + ")")
	}
	return found, nil
}

// TestPython runs the SDK's and the Python examples' suites on every
// supported Python found, as test does, and nothing else.
func TestPython() error {
	mg.Deps(Deps)
	pythons, err := pythonMatrix()
	if err != nil {
		return err
	}
	return testPythons(pythons)
}

// pythonFormatProblems lists the Python files (the SDK's, its tests', the
// examples') that the pinned ruff format would change, as gofmt -l does Go
// files; each folder's own pyproject.toml or ruff.toml sets the line length.
func pythonFormatProblems() []string {
	ruff := venvBin("ruff")
	if _, err := os.Stat(ruff); err != nil {
		return []string{"ruff is not installed in .venv: run go tool mage deps"}
	}
	args := append([]string{"format", "--check", "sdk-python"}, pythonExamples()...)
	out, err := exec.Command(ruff, args...).CombinedOutput()
	if err == nil {
		return nil
	}
	var problems []string
	for _, line := range strings.Split(string(out), "\n") {
		if f, ok := strings.CutPrefix(line, "Would reformat: "); ok {
			problems = append(problems, f+" is not ruff format-ed (run .venv/bin/ruff format "+f+")")
		}
	}
	if len(problems) == 0 { // ruff failed for another reason: say what it said
		problems = append(problems, fmt.Sprintf("ruff format --check: %v\n%s", err, out))
	}
	return problems
}

// pythonAgentPins are the pins of the Python agents the real-agent tests
// run: one file per agent, examples/realagents/python/NAME.txt, the whole
// set pip resolved for it (as a package-lock is), whose first line names
// the Python the agent needs ("# python 3.12"). One file per agent, not
// one per Python: two agents on one Python may pin one package apart.
func pythonAgentPins() []string { return glob("examples/realagents/python/*.txt") }

// installPythonAgent makes the agent's virtual environment,
// examples/realagents/venvs/NAME, with the Python its pins name, and
// installs them; again only when they change (the stamp .requirements is
// older than the pins), as .venv's.
func installPythonAgent(pins string) error {
	name := strings.TrimSuffix(filepath.Base(pins), ".txt")
	dir := filepath.Join("examples", "realagents", "venvs", name)
	stamp := filepath.Join(dir, ".requirements")
	if !olderThan(stamp, pins) {
		return nil
	}
	data, err := os.ReadFile(pins)
	if err != nil {
		return err
	}
	first, _, _ := strings.Cut(string(data), "\n")
	version, ok := strings.CutPrefix(first, "# python ")
	if !ok {
		return fmt.Errorf("%s: the first line names no Python (# python 3.X)", pins)
	}
	candidates := pythonCandidates(version)
	i := slices.IndexFunc(candidates, func(path string) bool { return isPython(path, version) })
	if i < 0 {
		return fmt.Errorf("%s needs Python %s, which is neither on PATH nor installed by pyenv", pins, version)
	}
	start := time.Now()
	for _, args := range [][]string{
		{candidates[i], "-m", "venv", "--clear", dir},
		uvInstall(filepath.Join(dir, "bin", "python"), "-r", pins),
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %s: %w\n%s", pins, strings.Join(args, " "), err, out)
		}
	}
	fmt.Printf("deps: %s installed on Python %s in %.0fs\n", name, version, time.Since(start).Seconds())
	return os.WriteFile(stamp, nil, 0o644)
}

// uvInstall is the command that installs packages into the virtual
// environment of python with uv (pinned in requirements-dev.txt, in .venv),
// compiled to bytecode as pip does: the agents and the suites start from
// it.
func uvInstall(python string, args ...string) []string {
	return append([]string{venvBin("uv"), "pip", "install", "--quiet", "--compile-bytecode", "--python", python}, args...)
}

// pythonExamples are the examples' Python folders that hold Python code
// (examples/realagents/python holds the Python agents' pins alone).
func pythonExamples() []string {
	var dirs []string
	for _, dir := range glob("examples/*/python") {
		if len(glob(dir+"/*.py")) > 0 {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}
