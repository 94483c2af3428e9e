// The tests of every example hook, in every language, run as a user runs
// them: through the hookwire CLI, with the hooks.json next to each hook.
// Each hook passes the conformance suite, and each scenario shows its hook
// at work under the reference runtime.
package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hookwire/hookwire/core/audit"
)

var (
	tmp string // this run's builds
	cli string // the hookwire CLI
	// bridgeCLI is hookwire-bridge, what the agents' settings name.
	bridgeCLI string
)

func TestMain(m *testing.M) {
	var err error
	if tmp, err = os.MkdirTemp("", "hookwire-examples"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cli = filepath.Join(tmp, "hookwire")
	bridgeCLI = filepath.Join(tmp, "hookwire-bridge")
	// The TypeScript hooks, every */typescript project, run as compiled
	// JavaScript against the SDK compiled likewise. Build mode is
	// incremental: nothing is redone that is up to date.
	projects, _ := filepath.Glob(filepath.Join("*", "typescript", "tsconfig.json"))
	tsc := []string{"-b", filepath.Join("..", "sdk-node")}
	for _, p := range projects {
		tsc = append(tsc, filepath.Dir(p))
	}
	err = build(
		exec.Command("go", "build", "-o", cli, "github.com/hookwire/hookwire/core/cmd/hookwire"),
		exec.Command("go", "build", "-o", bridgeCLI, "github.com/hookwire/hookwire/core/cmd/hookwire-bridge"),
		exec.Command(filepath.Join("..", "sdk-node", "node_modules", ".bin", "tsc"), tsc...),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Every host the suite starts, the real agents' bridges included,
	// appends its decisions to one log, many processes at once: the chain
	// must hold at the end.
	auditLog := filepath.Join(tmp, "audit", "audit.jsonl")
	os.Setenv("HOOKWIRE_AUDIT", auditLog)
	code := m.Run()
	if code == 0 {
		code = checkAuditLog(auditLog)
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

func checkAuditLog(path string) int {
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return 0 // the tests run started no host
	}
	r, err := audit.Verify(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "the suite's audit log:", err)
		return 1
	}
	if !r.OK() {
		fmt.Fprintf(os.Stderr, "the suite's audit log, %d records: the chain breaks:\n%s\n", r.Records, strings.Join(r.Problems, "\n"))
		return 1
	}
	fmt.Printf("the suite's audit log: %d records from every host it ran, one chain\n", r.Records)
	return 0
}

func build(cmds ...*exec.Cmd) error {
	for _, c := range cmds {
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(c.Args, " "), err, out)
		}
	}
	return nil
}

// goHooks are the Go hooks built so far, by source folder. They are built
// here rather than where their hooks.json expects them, because the Go
// examples' own tests build there.
var goHooks sync.Map

func goHook(t *testing.T, dir string) string {
	t.Helper()
	v, _ := goHooks.LoadOrStore(dir, sync.OnceValues(func() (string, error) {
		bin := filepath.Join(tmp, strings.ReplaceAll(dir, string(filepath.Separator), "-"))
		return bin, build(exec.Command("go", "build", "-o", bin, "./"+filepath.ToSlash(dir)))
	}))
	bin, err := v.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// hook is one process of a hooks.json.
type hook struct {
	Name    string            // its key in hooks.processes
	Command []string          `json:"command"`
	Dir     string            `json:"dir"`
	Env     map[string]string `json:"env"`
}

// config reads a hooks configuration, with the hooks' dirs made absolute
// and the commands of Go hooks ("./name" in a folder of Go source)
// pointing at their build. It returns the hooks in name order, and the
// configuration to run them with.
func config(t *testing.T, path string) ([]hook, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Hooks struct {
			Processes map[string]hook `json:"processes"`
		} `json:"hooks"`
	}
	var raw map[string]any // the file itself, to write back with the changes
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	json.Unmarshal(data, &raw)
	var hooks []hook
	for _, name := range slices.Sorted(maps.Keys(cfg.Hooks.Processes)) {
		h := cfg.Hooks.Processes[name]
		h.Name = name
		dir := filepath.Join(filepath.Dir(path), h.Dir)
		if h.Dir, err = filepath.Abs(dir); err != nil {
			t.Fatal(err)
		}
		if sources, _ := filepath.Glob(filepath.Join(dir, "*.go")); strings.HasPrefix(h.Command[0], "./") && len(sources) > 0 {
			h.Command[0] = goHook(t, dir)
		}
		process := raw["hooks"].(map[string]any)["processes"].(map[string]any)[name].(map[string]any)
		process["command"], process["dir"] = h.Command, h.Dir
		hooks = append(hooks, h)
	}
	out := filepath.Join(t.TempDir(), "hooks.json")
	b, _ := json.Marshal(raw)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return hooks, out
}

// environ is our environment with vars set on top, and with this run's
// hookwire first on the PATH, for the hooks that the CLI itself serves.
func environ(vars map[string]string) []string {
	env := append(os.Environ(), "PATH="+tmp+string(filepath.ListSeparator)+os.Getenv("PATH"))
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		env = append(env, k+"="+vars[k])
	}
	return env
}

// record is one line of a `hookwire run --json` transcript.
type record struct {
	Type      string         `json:"type"`
	Hook      string         `json:"hook"`
	Method    string         `json:"method"`
	Kind      string         `json:"kind"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Action    string         `json:"action"`
	Approved  *bool          `json:"approved"`
	Outcome   string         `json:"outcome"`
	By        string         `json:"by"`
	Reason    string         `json:"reason"`
	Status    string         `json:"status"`
	Answer    string         `json:"answer"`
	Result    *struct {
		ForLLM  string `json:"for_llm"`
		IsError bool   `json:"is_error"`
	} `json:"result"`
	line string // as printed, without duration_ms
}

// play runs `hookwire run --json` on a scenario with the hooks of
// hooksFile, with vars added to the environment the hooks inherit, and
// expects the run, and its last turn, to end well.
func play(t *testing.T, hooksFile, scenario string, vars map[string]string) []record {
	t.Helper()
	records, code, stderr := runJSON(t, hooksFile, scenario, vars)
	if code != 0 {
		t.Fatalf("hookwire run --hooks %s %s: exit %d\n%s", hooksFile, scenario, code, stderr)
	}
	if ends := ofType(records, "turn_end"); len(ends) == 0 || ends[len(ends)-1].Status != "done" {
		t.Fatalf("the turn did not end well: %+v\n%s", ends, stderr)
	}
	return records
}

// runJSON runs `hookwire run --json` as play does, however it ends: it
// returns the transcript's records, the exit status and stderr.
func runJSON(t *testing.T, hooksFile, scenario string, vars map[string]string) ([]record, int, string) {
	t.Helper()
	_, cfg := config(t, hooksFile)
	cmd := exec.Command(cli, "run", "--json", "--hooks", cfg, scenario)
	cmd.Env = environ(vars)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatal(err)
		}
	}
	var records []record
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r record
		var all map[string]any
		if json.Unmarshal([]byte(line), &r) != nil || json.Unmarshal([]byte(line), &all) != nil {
			t.Fatalf("transcript line %q is not JSON", line)
		}
		delete(all, "duration_ms")
		b, _ := json.Marshal(all)
		r.line = string(b)
		records = append(records, r)
	}
	return records, cmd.ProcessState.ExitCode(), stderr.String()
}

// ofType keeps the records of one type.
func ofType(records []record, typ string) []record {
	return keep(records, func(r record) bool { return r.Type == typ })
}

func lines(records []record) string {
	var b strings.Builder
	for _, r := range records {
		b.WriteString(r.line + "\n")
	}
	return b.String()
}
