//go:build mage

// Every task of the repository. Run `go tool mage -l` for the list.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/magefile/mage/mg"
)

// goModules are the Go modules of the repository, in dependency order.
var goModules = []string{".", "core", "codegen", "sdk-go", "examples", "bench"}

// generated are the files `gen` writes; `check` compares them with a fresh run.
var generated = []string{
	"schema/hookwire.schema.json",
	"schema/methods.json",
	"core/schema/comments_gen.go",
	"sdk-go/protocol_gen.go",
	"sdk-go/hook_gen.go",
	"sdk-python/src/hookwire/_protocol_gen.py",
	"sdk-python/src/hookwire/_methods_gen.py",
	"sdk-node/src/protocol.gen.ts",
	"sdk-node/src/methods.gen.ts",
	"sdk-node/src/exports.gen.ts",
	"docs/protocol.md",
	"docs/actions.md",
	"core/bridge/tool_names_gen.go",
	"sdk-go/tool_names_gen.go",
	"sdk-python/src/hookwire/_tool_names_gen.py",
	"sdk-node/src/tool-names.gen.ts",
	"docs/tools.md",
	"docs/agent-events.md",
	"sdk-go/lifecycle/lifecycle_gen.go",
	"sdk-python/src/hookwire/_lifecycle_gen.py",
	"sdk-node/src/lifecycle.gen.ts",
	"docs/lifecycle.md",
	"core/install/opencode-plugin.gen.js",
}

// run runs a command in dir with its output going to ours.
func run(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %s %s: %w", dir, name, strings.Join(args, " "), err)
	}
	return nil
}

// Gen regenerates the schema, the method table and every SDK's protocol code.
func Gen() error {
	if err := run("core", "go", "run", "./cmd/gen", ".."); err != nil {
		return err
	}
	return run("codegen", "go", "run", ".", "..")
}

// Check fails when a generated file is out of date, or when gofmt, go vet,
// ruff format or Biome (sdk-node's formatter and linter) complain.
func Check() error {
	mg.Deps(Deps) // ruff, for the Python files' format
	var problems []string
	before := map[string][]byte{}
	for _, f := range generated {
		b, err := os.ReadFile(f)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s is missing: run go tool mage gen", f))
		}
		before[f] = b
	}
	if err := Gen(); err != nil {
		return err
	}
	for _, f := range generated {
		after, _ := os.ReadFile(f)
		if before[f] != nil && !bytes.Equal(before[f], after) {
			problems = append(problems, fmt.Sprintf("%s differs from what go tool mage gen writes (edited by hand, or gen not run)", f))
			// Put the committed file back: check reports, it does not repair.
			_ = os.WriteFile(f, before[f], 0o644)
		}
	}
	for _, m := range goModules {
		out, err := exec.Command("gofmt", "-l", m).Output()
		if err != nil {
			return err
		}
		for _, f := range strings.Fields(string(out)) {
			if m == "." && strings.Contains(f, string(filepath.Separator)) && !strings.HasPrefix(f, "tools"+string(filepath.Separator)) {
				continue // files of the other modules are listed under their own module
			}
			problems = append(problems, fmt.Sprintf("%s is not gofmt-ed", f))
		}
		if m == "." {
			continue // the root module holds only this magefile
		}
		if err := run(m, "go", "vet", "./..."); err != nil {
			problems = append(problems, err.Error())
		}
		// Users run hooks on macOS as much as on Linux, and the shipped
		// modules (the CLI with its bridge, the Go SDK) on Windows too; the
		// examples' and the bench's harnesses are Unix programs.
		systems := []string{"darwin"}
		if m == "core" || m == "sdk-go" {
			systems = append(systems, "windows")
		}
		for _, goos := range systems {
			vet := exec.Command("go", "vet", "./...") // type-checks that system's files, writes nothing
			vet.Dir, vet.Env = m, append(os.Environ(), "GOOS="+goos)
			if out, err := vet.CombinedOutput(); err != nil {
				problems = append(problems, fmt.Sprintf("%s does not build for %s: %s", m, goos, out))
			}
		}
	}
	problems = append(problems, crossBuildProblems()...)
	problems = append(problems, windowsTestProblems()...)
	problems = append(problems, pythonFormatProblems()...)
	problems = append(problems, nodeLintProblems()...)
	if len(problems) > 0 {
		return errors.New("check failed:\n  " + strings.Join(problems, "\n  "))
	}
	return nil
}

// crossBuildProblems builds the commands for every platform of a release,
// so that none breaks unseen until dist.
func crossBuildProblems() []string {
	var problems []string
	for _, p := range platforms {
		build := exec.Command("go", "build", "./cmd/...") // several packages: built, then thrown away
		build.Dir, build.Env = "core", append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			problems = append(problems, fmt.Sprintf("core/cmd does not build for %s/%s: %s", p.goos, p.goarch, out))
		}
	}
	return problems
}

// windowsTestProblems builds, for Windows, the tests of every core package
// with files of its own for Windows: no machine of ours runs them (Debian's
// Wine cannot start a program of this Go), so building them is what keeps
// them from breaking unseen.
func windowsTestProblems() []string {
	list := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .GoFiles}} {{.}}{{end}}{{range .TestGoFiles}} {{.}}{{end}}", "./...")
	list.Dir, list.Env = "core", append(os.Environ(), "GOOS=windows")
	out, err := list.Output()
	if err != nil {
		return []string{fmt.Sprintf("core: go list for windows: %v", err)}
	}
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, f := range fields[1:] {
			if strings.Contains(f, "windows") {
				pkgs = append(pkgs, fields[0])
				break
			}
		}
	}
	if len(pkgs) == 0 {
		return []string{"core: no package has files for Windows, which the bridge needs"}
	}
	dir, err := os.MkdirTemp("", "hookwire-windows-tests")
	if err != nil {
		return []string{err.Error()}
	}
	defer os.RemoveAll(dir)
	// Into a folder: with several packages, -c writes one binary each.
	build := exec.Command("go", append([]string{"test", "-c", "-o", dir + string(filepath.Separator)}, pkgs...)...)
	build.Dir, build.Env = "core", append(os.Environ(), "GOOS=windows", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return []string{fmt.Sprintf("core: the tests of %s do not build for windows: %s", strings.Join(pkgs, " "), out)}
	}
	return nil
}

// nodeLintProblems runs the pinned Biome over sdk-node: its formatter, its
// linter and its import order, as sdk-node/biome.json sets them.
func nodeLintProblems() []string {
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "biome"), "check", "--max-diagnostics=20", ".")
	cmd.Dir = "sdk-node"
	if out, err := cmd.CombinedOutput(); err != nil {
		return []string{fmt.Sprintf("sdk-node: biome check: %v (run npx biome check --write there)\n%s", err, out)}
	}
	return nil
}

// Test runs every test of every language.
func Test() error {
	mg.Deps(Deps)
	pythons, err := pythonMatrix()
	if err != nil {
		return err
	}
	// The npm projects first: their builds write sdk-node/dist, which the
	// examples' tests then only read.
	for _, dir := range nodeProjects() {
		if hasScript(dir, "test") {
			if err := run(dir, "npm", "test"); err != nil {
				return err
			}
		}
	}
	// The examples' suite runs real agents and a browser, mostly waiting on
	// them: it runs beside the rest, its output held until it ends, and
	// twice as many of its tests at once as there are CPUs (a real agent's
	// run waits on its model, its hook and the deadlines the failure cases
	// reach), so that CI stays within its time.
	examples := inBackground("examples", "go", "test", "-race", "-count=1", "-timeout", "30m",
		"-parallel", strconv.Itoa(2*runtime.NumCPU()), "./...")
	err = testTheRest(pythons)
	if examplesErr := examples(); err == nil {
		err = examplesErr
	}
	return err
}

// testTheRest is every suite but the examples'.
func testTheRest(pythons []python) error {
	for _, m := range goModules[1:] {
		if m == "examples" {
			continue
		}
		if err := run(m, "go", "test", "-race", "-count=1", "./..."); err != nil {
			return err
		}
	}
	python := append([]string{"sdk-python"}, pythonExamples()...)
	if err := run(".", venvBin("pytest"), "-q", "schema"); err != nil {
		return err
	}
	// The SDK, its generated module included, must type-check on the oldest Python it supports.
	mypy := append([]string{"--strict", "--python-version", "3.9", "sdk-python/src", "sdk-python/tests"}, python[1:]...)
	if err := run(".", venvBin("mypy"), mypy...); err != nil {
		return err
	}
	if err := run(".", venvBin("ruff"), append([]string{"check"}, python...)...); err != nil {
		return err
	}
	return testPythons(pythons)
}

// inBackground starts a command and returns the wait for its end, which
// prints all it wrote.
func inBackground(dir, name string, args ...string) (wait func() error) {
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	err := cmd.Start()
	return func() error {
		if err == nil {
			err = cmd.Wait()
		}
		os.Stdout.Write(out.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", dir, name, strings.Join(args, " "), err)
		}
		return nil
	}
}

// Demo runs one agent turn with the weather plugin of the PicoClaw documents,
// a plain Python script, and prints the transcript: the LLM calls
// get_weather and the hook answers it.
func Demo() error {
	return run("core", "go", "run", "./cmd/hookwire", "run",
		"--hooks", "../examples/weather/hooks.json", "../examples/weather/scenario.json")
}

// Bench measures what hooks cost, every contender side by side in one run
// of a few minutes: it prints medians, p99s and ratios, and writes
// bench/results.json (BENCHMARKS.md explains them). Not part of ci: timings
// are too noisy to gate on. HOOKWIRE_BENCH_QUICK=1 runs a tenth of the counts.
func Bench() error {
	mg.Deps(Deps)
	return run("bench", "go", "run", ".")
}

// CI runs check, then test, then every fuzz target for a few seconds
// (HOOKWIRE_CI_FUZZTIME each, 5s unless set: a smoke run, which keeps CI
// within its time; go tool mage fuzz is the long run).
func CI() {
	mg.SerialDeps(Check, Test, mg.F(fuzzAll, envDuration("HOOKWIRE_CI_FUZZTIME", 5*time.Second)))
}

// Fuzz runs every fuzz target of every Go module for HOOKWIRE_FUZZTIME
// each (5m unless set, as in HOOKWIRE_FUZZTIME=30m); HOOKWIRE_FUZZ, a
// regular expression, picks targets by name. An input that fails is
// written under the package's testdata/fuzz: commit it, and it runs with
// every go test from then on.
func Fuzz() error {
	return fuzzAll(envDuration("HOOKWIRE_FUZZTIME", 5*time.Minute))
}

// fuzzAll runs each fuzz target found for d: `go test -fuzz` takes one
// target at a time.
func fuzzAll(d time.Duration) error {
	pick, err := regexp.Compile(os.Getenv("HOOKWIRE_FUZZ"))
	if err != nil {
		return fmt.Errorf("HOOKWIRE_FUZZ: %w", err)
	}
	var failed []string
	for _, m := range goModules[1:] {
		targets, err := fuzzTargets(m)
		if err != nil {
			return err
		}
		for _, t := range targets {
			if !pick.MatchString(t.name) {
				continue
			}
			fmt.Printf("fuzz: %s %s for %v\n", filepath.Join(m, t.pkg), t.name, d)
			corpus := filepath.Join(m, t.pkg, "testdata", "fuzz", t.name)
			fuzz := func() error {
				// Minimizing a new interesting input can outlast -fuzztime, and
				// Go 1.26's engine then fails with no input; a failing input is
				// still minimized, for a short while.
				return run(m, "go", "test", "-run", "^$", "-fuzz", "^"+t.name+"$", "-fuzztime", d.String(),
					"-fuzzminimizetime", "2s", "./"+t.pkg)
			}
			before := len(glob(filepath.Join(corpus, "*")))
			err := fuzz()
			for try := 0; try < 2 && err != nil && len(glob(filepath.Join(corpus, "*"))) == before; try++ {
				// No failing input was written: the fuzzing engine itself gave
				// up (Go 1.26's coordinator can time out, golang/go#75804).
				fmt.Printf("fuzz: %s wrote no failing input; once more\n", t.name)
				err = fuzz()
			}
			if err != nil {
				failed = append(failed, fmt.Sprintf("%s %s (its input is under %s: commit it)", filepath.Join(m, t.pkg), t.name, corpus))
			}
		}
	}
	if len(failed) > 0 {
		return errors.New("fuzzing failed:\n  " + strings.Join(failed, "\n  "))
	}
	return nil
}

type fuzzTarget struct{ pkg, name string }

var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)

// fuzzTargets finds the fuzz targets of a module by reading its test
// files, so that a new one runs without being listed anywhere.
func fuzzTargets(module string) ([]fuzzTarget, error) {
	var found []fuzzTarget
	err := filepath.WalkDir(module, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != module && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || exists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg, _ := filepath.Rel(module, filepath.Dir(path))
		for _, m := range fuzzFunc.FindAllSubmatch(src, -1) {
			found = append(found, fuzzTarget{filepath.ToSlash(pkg), string(m[1])})
		}
		return nil
	})
	return found, err
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// envDuration is the duration in the environment variable name, or def.
func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

// Deps installs the pinned dev tools and what the SDKs build with: a Python
// virtual environment in .venv with sdk-python installed in it (editable, so
// it sees regenerated code), and sdk-node's node_modules; and what the tests
// run: Debian's Chromium, the pinned real agents and the OpenTelemetry
// Collector of tools/otelcol.
func Deps() error {
	// The collector's build, all CPU, runs beside the installs, which
	// mostly wait on the registries.
	collector := make(chan error, 1)
	go func() { collector <- buildCollector() }()
	if err := buildDeps(); err != nil {
		return errors.Join(err, <-collector)
	}
	if err := installBrowser(); err != nil {
		return errors.Join(err, <-collector)
	}
	// The examples' projects are independent of one another: installed at once.
	var waits []func() error
	for _, dir := range append([]string{"examples/realagents"}, glob("examples/*/typescript")...) {
		if argv := npmInstallArgs(dir); argv != nil {
			waits = append(waits, inBackground(dir, argv[0], argv[1:]...))
		}
	}
	// The Python agents, each in a virtual environment of its own.
	for _, pins := range pythonAgentPins() {
		done := make(chan error, 1)
		go func() { done <- installPythonAgent(pins) }()
		waits = append(waits, func() error { return <-done })
	}
	errs := []error{<-collector}
	for _, wait := range waits {
		errs = append(errs, wait())
	}
	return errors.Join(errs...)
}

// buildDeps are what the packages build with, and all dist needs: the
// virtual environment with the Python build backend, and sdk-node's
// node_modules.
func buildDeps() error {
	if _, err := os.Stat(venvBin("pip")); err != nil {
		if err := run(".", "python3", "-m", "venv", ".venv"); err != nil {
			return err
		}
	}
	// Again whenever the pins change.
	if olderThan(".venv/.requirements", "requirements-dev.txt") {
		if err := run(".", venvBin("pip"), "install", "--quiet", "-r", "requirements-dev.txt"); err != nil {
			return err
		}
		if err := os.WriteFile(".venv/.requirements", nil, 0o644); err != nil {
			return err
		}
	}
	if exec.Command(venvBin("python"), "-c", "import hookwire").Run() != nil {
		if err := run(".", venvBin("pip"), "install", "--quiet", "-e", "sdk-python"); err != nil {
			return err
		}
	}
	// Compiled once, as an installed package ships it: a hook then starts
	// without compiling the SDK, even where PYTHONDONTWRITEBYTECODE is set.
	if err := run(".", venvBin("python"), "-m", "compileall", "-q", "sdk-python/src"); err != nil {
		return err
	}
	return npmInstall("sdk-node")
}

// collector is the OpenTelemetry Collector that the telemetry tests
// export to (tools/otelcol), as buildCollector builds it.
var collector = filepath.Join("tools", "otelcol", "bin", "otelcol")

// buildCollector builds the collector of tools/otelcol, a module of its own
// outside the workspace, from the Go module proxy, when its sources are
// newer than the build: a few minutes the first time, on this machine.
func buildCollector() error {
	if !olderThan(collector, "tools/otelcol/go.sum") && !olderThan(collector, "tools/otelcol/main.go") {
		return nil
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join("bin", "otelcol"), ".")
	cmd.Dir, cmd.Stdout, cmd.Stderr = filepath.Join("tools", "otelcol"), os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the OpenTelemetry Collector of tools/otelcol: %w", err)
	}
	return nil
}

// npmInstall installs the npm project in dir from its lock, when the lock
// is newer than what is installed.
func npmInstall(dir string) error {
	if argv := npmInstallArgs(dir); argv != nil {
		return run(dir, argv[0], argv[1:]...)
	}
	return nil
}

// npmInstallArgs is the command that installs the npm project in dir, or
// nil when what is installed is as new as its lock.
func npmInstallArgs(dir string) []string {
	if !olderThan(dir+"/node_modules/.package-lock.json", dir+"/package-lock.json") {
		return nil
	}
	install := "ci"
	if dir == "examples/realagents" {
		// Qwen Code names optional platform packages that the registry
		// does not have, which npm ci takes for a lock out of sync; npm
		// install installs from the same lock and leaves it as it is.
		install = "install"
	}
	return []string{"npm", install, "--no-audit", "--no-fund"}
}

// installBrowser installs Debian's Chromium, which the browser tests of
// hookwire inspect drive headless, when none is on PATH and we are root (as
// CI is); elsewhere it says what to install.
func installBrowser() error {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(name); err == nil {
			return nil
		}
	}
	if os.Geteuid() != 0 {
		fmt.Println("deps: no Chromium for the browser tests of hookwire inspect: install Debian's chromium (they are skipped meanwhile, and fail under CI)")
		return nil
	}
	if err := run(".", "apt-get", "update"); err != nil {
		return err
	}
	os.Setenv("DEBIAN_FRONTEND", "noninteractive")
	return run(".", "apt-get", "install", "-y", "chromium")
}

// nodeProjects are the SDK's and every TypeScript example's npm projects,
// and the pinned agents the real-agent tests run (examples/realagents).
func nodeProjects() []string {
	return append([]string{"sdk-node", "examples/realagents", "examples/realagents/opencode-plugins"}, glob("examples/*/typescript")...)
}

// hasScript is true when the npm project in dir defines the script.
func hasScript(dir, script string) bool {
	var pkg struct{ Scripts map[string]string }
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	return err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Scripts[script] != ""
}

func glob(pattern string) []string {
	matches, _ := filepath.Glob(pattern)
	return matches
}

// olderThan is true when file is missing or older than source.
func olderThan(file, source string) bool {
	f, err := os.Stat(file)
	if err != nil {
		return true
	}
	s, err := os.Stat(source)
	return err != nil || f.ModTime().Before(s.ModTime())
}

// venvBin is a program of the virtual environment, as an absolute path, so
// that it runs from any folder.
func venvBin(name string) string {
	dir := "bin"
	if runtime.GOOS == "windows" {
		dir = "Scripts"
	}
	abs, _ := filepath.Abs(filepath.Join(".venv", dir, name))
	return abs
}
