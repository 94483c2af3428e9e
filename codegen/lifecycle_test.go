package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A row added to the lifecycle table reaches the three SDKs with no
// hand-written change: the table plus one event, fed by hook.after_llm,
// is generated into a copy of the SDKs' sources, and a hook in each
// language that registers a callback for it, and nothing else, is driven
// over the protocol as a real process. The callback reads the new input
// field, and its abort maps to abort_turn as the row says.
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
			hello, reply := drive(t, command,
				`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"probe","version":1}}`,
				`{"jsonrpc":"2.0","id":2,"method":"hook.after_llm","params":{"meta":{"SessionKey":"s1","TurnID":"t1"},"model":"m","response":{"content":"hello"}}}`)
			if !strings.Contains(hello, `"llm"`) {
				t.Errorf("hello result %s: the llm mode is not declared for the new event", hello)
			}
			if want := `{"action":"abort_turn","reason":"saw hello"}`; !jsonSame(reply, want) {
				t.Errorf("hook.after_llm answered %s, want %s", reply, want)
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

	"github.com/hookwire/hookwire/sdk-go/lifecycle"
)

func main() {
	lifecycle.New("probe", lifecycle.Options{Hooks: lifecycle.Hooks{
		lifecycle.ModelReplied: {func(_ context.Context, in lifecycle.Input) (lifecycle.Output, error) {
			return lifecycle.Output{Action: lifecycle.Abort, Reason: "saw " + in.Reply}, nil
		}},
	}}).Main()
}
`)
	if err != nil {
		return nil, err
	}
	build := exec.Command("go", "build", "-o", "hook", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	return []string{filepath.Join(dir, "hook")}, nil
}

func pythonHook(root, tmp string) ([]string, error) {
	python, err := filepath.Abs(filepath.Join(root, ".venv", "bin", "python"))
	if err != nil {
		return nil, err
	}
	err = writeFiles(tmp, "hook.py", `import sys

sys.path.insert(0, sys.argv[1])

from hookwire import HookEvent, LifecycleHook


def saw(input):
    return {"action": "abort", "reason": "saw " + input.reply}


LifecycleHook("probe", hooks={HookEvent.ModelReplied: [saw]}).run()
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
  hooks: { [HookEvent.ModelReplied]: [(input) => ({ action: "abort", reason: "saw " + input.reply })] },
}).run();
`)
	if err != nil {
		return nil, err
	}
	tsc := exec.Command(filepath.Join(modules, ".bin", "tsc"), "-p", ".")
	tsc.Dir = dir
	if out, err := tsc.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tsc: %v\n%s", err, out)
	}
	return []string{"node", filepath.Join(dir, "dist", "hook.js")}, nil
}

// drive sends a hook the lines of a hello and of one call, and returns the
// results of the two, as JSON.
func drive(t *testing.T, command []string, hello, call string) (string, string) {
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
	lines := bufio.NewScanner(stdout)
	for _, line := range []string{hello, call} {
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			stop()
			t.Fatalf("the hook answered nothing to %s; stderr:\n%s", line, stderr.String())
		}
		var reply struct {
			ID     float64
			Result json.RawMessage
		}
		if err := json.Unmarshal(lines.Bytes(), &reply); err != nil || reply.Result == nil {
			t.Fatalf("the hook answered %s to %s", lines.Text(), line)
		}
		results[reply.ID] = string(reply.Result)
	}
	return results[1], results[2]
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
