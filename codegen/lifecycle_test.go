package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Rows added to the lifecycle table reach the three SDKs with no
// hand-written change: the table plus two events, one fed by
// hook.after_llm and one by the runtime event agent.turn.start, is
// generated into a copy of the SDKs' sources, and a hook in each language
// that registers a callback for each, and nothing else, is driven over the
// protocol as a real process. The callbacks read their input fields, the
// after_llm one's abort maps to abort_turn as its row says, and the other
// one writes what it got to stderr.
func TestANewLifecycleRowReachesEverySDK(t *testing.T) {
	root := filepath.Join("..")
	var table map[string]any
	raw, err := os.ReadFile(filepath.Join(root, lifecycleFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	table["fields"].(map[string]any)["reply"] = map[string]any{"type": "string", "doc": "The text of the LLM's answer."}
	table["events"] = append(table["events"].([]any), map[string]any{
		"name":   "ModelReplied",
		"doc":    "hook.after_llm of an answer",
		"method": "hook.after_llm",
		"input":  []any{map[string]any{"field": "reply", "from": "response.content"}},
		"abort":  map[string]any{"action": "abort_turn"},
	}, map[string]any{
		"name":       "TurnStarted",
		"doc":        "the runtime event agent.turn.start",
		"event_kind": "agent.turn.start",
		"input":      []any{map[string]any{"field": "payload", "from": "payload"}},
	})
	raw, err = json.Marshal(table)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := generateLifecycle(root, raw)
	if err != nil {
		t.Fatal(err)
	}

	tmp := t.TempDir()
	for _, dir := range []string{"sdk-go", "sdk-python/src", "sdk-node/src"} {
		copyTree(t, filepath.Join(root, dir), filepath.Join(tmp, dir))
	}
	for _, o := range outs {
		if strings.HasPrefix(o.Path, "sdk-") {
			write(t, filepath.Join(tmp, o.Path), string(o.Data))
		}
	}

	// Built at once: tsc takes the longest.
	hooks := map[string]func() ([]string, error){
		"go":         func() ([]string, error) { return goHook(tmp) },
		"python":     func() ([]string, error) { return pythonHook(root, tmp) },
		"typescript": func() ([]string, error) { return typescriptHook(root, tmp) },
	}
	commands, failures := map[string][]string{}, map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for lang, build := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			command, err := build()
			mu.Lock()
			defer mu.Unlock()
			commands[lang], failures[lang] = command, err
		}()
	}
	wg.Wait()
	for lang, command := range commands {
		t.Run(lang, func(t *testing.T) {
			if err := failures[lang]; err != nil {
				t.Fatal(err)
			}
			results, stderr := drive(t, command,
				`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"probe","version":1}}`,
				`{"jsonrpc":"2.0","method":"hook.runtime_event","params":{"kind":"agent.turn.start","source":{},"scope":{"session_key":"s1"},"payload":{"Goal":"probe"}}}`,
				`{"jsonrpc":"2.0","id":2,"method":"hook.after_llm","params":{"meta":{"SessionKey":"s1","TurnID":"t1"},"model":"m","response":{"content":"hello"}}}`)
			if hello := results[1]; !strings.Contains(hello, `"llm"`) || !strings.Contains(hello, `"observe"`) {
				t.Errorf("hello result %s: the llm and observe modes are not both declared for the new events", hello)
			}
			if want := `{"action":"abort_turn","reason":"saw hello"}`; !jsonSame(results[2], want) {
				t.Errorf("hook.after_llm answered %s, want %s", results[2], want)
			}
			if !strings.Contains(stderr, "TurnStarted s1 probe") {
				t.Errorf("the TurnStarted callback did not run; stderr:\n%s", stderr)
			}
		})
	}
}

func goHook(tmp string) ([]string, error) {
	dir := filepath.Join(tmp, "gohook")
	err := writeFiles(dir, "go.mod", "module probe\n\ngo 1.24\n\nrequire github.com/hookwire/hookwire/sdk-go v0.0.0\n\nreplace github.com/hookwire/hookwire/sdk-go => ../sdk-go\n",
		"main.go", `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hookwire/hookwire/sdk-go/lifecycle"
)

func main() {
	lifecycle.New("probe", lifecycle.Options{Hooks: lifecycle.Hooks{
		lifecycle.ModelReplied: {func(_ context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			return lifecycle.Output{Action: lifecycle.Abort, Reason: "saw " + in.Reply}, nil
		}},
		lifecycle.TurnStarted: {func(_ context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			var p struct{ Goal string }
			_ = json.Unmarshal(in.Payload, &p)
			fmt.Fprintln(os.Stderr, in.Event, in.SessionID, p.Goal)
			return lifecycle.Output{}, nil
		}},
	}}).Main()
}
`)
	if err != nil {
		return nil, err
	}
	hook := filepath.Join(dir, "hook")
	if runtime.GOOS == "windows" {
		hook += ".exe"
	}
	build := exec.Command("go", "build", "-o", hook, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	return []string{hook}, nil
}

func pythonHook(root, tmp string) ([]string, error) {
	bin := "bin"
	if runtime.GOOS == "windows" {
		bin = "Scripts"
	}
	python, err := filepath.Abs(filepath.Join(root, ".venv", bin, "python"))
	if err != nil {
		return nil, err
	}
	err = writeFiles(tmp, "hook.py", `import sys

sys.path.insert(0, sys.argv[1])

from hookwire import HookEvent, LifecycleHook


def saw(input):
    return {"action": "abort", "reason": "saw " + input.reply}


def started(input):
    print(input.event, input.session_id, input.payload["Goal"], file=sys.stderr)
    return {"action": "continue"}


LifecycleHook("probe", hooks={HookEvent.ModelReplied: [saw], HookEvent.TurnStarted: [started]}).run()
`)
	return []string{python, filepath.Join(tmp, "hook.py"), filepath.Join(tmp, "sdk-python", "src")}, err
}

func typescriptHook(root, tmp string) ([]string, error) {
	dir := filepath.Join(tmp, "sdk-node")
	modules, err := filepath.Abs(filepath.Join(root, "sdk-node", "node_modules"))
	if err != nil {
		return nil, err
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		return nil, err
	}
	err = writeFiles(dir, "package.json", `{"type": "module"}`, "tsconfig.json", `{"compilerOptions": {"target": "ES2022", "lib": ["ES2022"], "module": "NodeNext",
  "moduleResolution": "NodeNext", "types": ["node"], "strict": true, "noUncheckedIndexedAccess": true,
  "skipLibCheck": true, "rootDir": ".", "outDir": "dist"}, "include": ["src", "hook.ts"]}`,
		"hook.ts", `import { HookEvent, lifecycle } from "./src/index.js";

lifecycle("probe", {
  hooks: {
    [HookEvent.ModelReplied]: [(input) => ({ action: "abort", reason: "saw " + input.reply })],
    [HookEvent.TurnStarted]: [
      (input) => {
        console.error(input.event, input.sessionId, (input.payload as { Goal: string }).Goal);
        return { action: "continue" };
      },
    ],
  },
}).run();
`)
	if err != nil {
		return nil, err
	}
	tsc := exec.Command("node", filepath.Join(modules, "typescript", "bin", "tsc"), "-p", ".")
	tsc.Dir = dir
	if out, err := tsc.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tsc: %v\n%s", err, out)
	}
	return []string{"node", filepath.Join(dir, "dist", "hook.js")}, nil
}

// drive sends a hook lines, waits for the answer of each request among
// them, then closes its stdin and waits for it to exit: the results by id,
// and its stderr.
func drive(t *testing.T, command []string, lines ...string) (map[float64]string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { stdin.Close(); _ = cmd.Wait() }) }
	defer stop()
	results := map[float64]string{}
	replies := bufio.NewScanner(stdout)
	for _, line := range lines {
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(line, `"id"`) {
			continue // a notification: no answer
		}
		if !replies.Scan() {
			stop()
			t.Fatalf("the hook answered nothing to %s; stderr:\n%s", line, stderr.String())
		}
		var reply struct {
			ID     float64
			Result json.RawMessage
		}
		if err := json.Unmarshal(replies.Bytes(), &reply); err != nil || reply.Result == nil {
			t.Fatalf("the hook answered %s to %s", replies.Text(), line)
		}
		results[reply.ID] = string(reply.Result)
	}
	stop()
	return results, stderr.String()
}

func jsonSame(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := writeFiles(filepath.Dir(path), filepath.Base(path), data); err != nil {
		t.Fatal(err)
	}
}

// writeFiles writes files into dir, given as name, content, name, content...
func writeFiles(dir string, files ...string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 0; i < len(files); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, files[i]), []byte(files[i+1]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the source files of a directory, leaving out what builds
// and tests leave there.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "__pycache__" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		write(t, filepath.Join(to, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A lifecycle table that names what the method table or the runners do not
// know is refused, with the event and the reason: a condition is one of the
// runners' named ones, never an expression.
func TestLoadLifecycleRefusesAnUnknownSourceTypeOrOutcome(t *testing.T) {
	schemaJSON, err := os.ReadFile(filepath.Join("..", schemaPath))
	if err != nil {
		t.Fatal(err)
	}
	methodsJSON, err := os.ReadFile(filepath.Join("..", methodsPath))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(schemaJSON, methodsJSON, schemaPath, methodsPath)
	if err != nil {
		t.Fatal(err)
	}
	key := `"session_key": {"call": "meta.SessionKey", "event": ["scope.session_key"]}, `
	fields := key + `"fields": {"x": {"type": "string"}, "y": {"type": "color"}}`
	for row, want := range map[string]string{
		`{"name": "A", "method": "hook.nope"}`:          "method hook.nope is no request a hook handles",
		`{"name": "A", "method": "hook.hello"}`:         "method hook.hello is no request a hook handles",
		`{"name": "A", "method": "hook.runtime_event"}`: "method hook.runtime_event is no request a hook handles",
		`{"name": "A", "event_kind": "agent.nope"}`:     "event kind agent.nope is no runtime event kind",
		`{"name": "A"}`: "comes from a method, an event kind or a session step",
		`{"name": "A", "method": "hook.before_tool", "session": "start"}`:                                 "comes from a method, an event kind or a session step",
		`{"name": "A", "session": "middle"}`:                                                              "comes from a method, an event kind or a session step",
		`{"name": "A", "session": "start", "input": [{"field": "z", "from": "tool"}]}`:                    `input field "z" is not in fields`,
		`{"name": "A", "method": "hook.before_tool", "modify": {"with": "modified_input", "field": "x"}}`: "modify is with modified_input or modified_output, of one of its input fields",
		`{"name": "A", "method": "hook.before_tool", "skip": {"action": "explode"}}`:                      `outcome "explode" is none of`,
		`{"name": "A", "method": "hook.after_tool", "when": "!result.is_error"}`:                          `the condition "!result.is_error" is none of first_of_turn, is_error`,
		`{"name": "A", "session": "start", "unless": "is_error"}`:                                         `the condition "is_error" is none of first_of_turn, is_error, on a method`,
		`{"name": "A", "method": "hook.before_tool", "input": [{"field": "x", "from": "nope"}]}`:          "input field x: BeforeToolParams has no member nope",
	} {
		_, err := loadLifecycle(m, []byte(`{`+strings.Replace(fields, `, "y": {"type": "color"}`, "", 1)+`, "events": [`+row+`]}`))
		if err == nil || !strings.Contains(err.Error(), "event A: "+want) {
			t.Errorf("%s: got %v, want an error with %q", row, err, want)
		}
	}
	if _, err := loadLifecycle(m, []byte(`{`+fields+`, "events": []}`)); err == nil || !strings.Contains(err.Error(), `field y has type "color"`) {
		t.Errorf("an unknown field type: got %v", err)
	}
	if _, err := loadLifecycle(m, []byte(`{`+key+`"fields": {}, "events": [{"name": "A", "session": "start"}, {"name": "A", "session": "end"}]}`)); err == nil || !strings.Contains(err.Error(), "a name is needed, once") {
		t.Errorf("a name twice: got %v", err)
	}
	if _, err := loadLifecycle(m, []byte(`{"fields": {}, "events": []}`)); err == nil || !strings.Contains(err.Error(), "session_key needs") {
		t.Errorf("no session key: got %v", err)
	}
}
