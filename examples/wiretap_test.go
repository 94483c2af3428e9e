package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tapped rewrites a hooks configuration so that each hook's command runs
// under `hookwire tap --out recording`, as a user puts tap in a host's
// configuration; it returns the new configuration.
func tapped(t *testing.T, hooksFile, recording string) string {
	t.Helper()
	_, cfg := config(t, hooksFile)
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	json.Unmarshal(data, &raw)
	for _, p := range raw["hooks"].(map[string]any)["processes"].(map[string]any) {
		process := p.(map[string]any)
		process["command"] = append([]any{cli, "tap", "--out", recording, "--"}, process["command"].([]any)...)
	}
	data, _ = json.Marshal(raw)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// hookwire runs the CLI in dir with the hook's environment; it returns the
// exit code, stdout and stderr.
func hookwire(t *testing.T, h hook, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(cli, args...)
	cmd.Dir, cmd.Env = h.Dir, environ(h.Env)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// weatherHook is the weather hook of a language, as its hooks.json runs it.
func weatherHook(t *testing.T, lang string) hook {
	t.Helper()
	hooks, _ := config(t, filepath.Join("weather", lang, "hooks.json"))
	return hooks[0]
}

// A weather turn recorded by tap, placed in the hooks configuration that
// `hookwire run` reads, replays against the weather hook of every SDK with
// every decision the same; a hook that answers otherwise is caught, with
// the call and the member that differ.
func TestARecordedWeatherTurnReplaysAgainstEveryLanguagesHook(t *testing.T) {
	recording := filepath.Join(t.TempDir(), "weather.jsonl")
	cfg := tapped(t, filepath.Join("weather", "python", "hooks.json"), recording)
	cmd := exec.Command(cli, "run", "--hooks", cfg, filepath.Join("weather", "scenario.json"))
	cmd.Env = environ(nil)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "answered by hook weather_plugin") {
		t.Fatalf("hookwire run with the tapped hook: %v\n%s", err, out)
	}

	for _, lang := range []string{"python", "typescript", "go"} {
		h := weatherHook(t, lang)
		code, out, errOut := hookwire(t, h, append([]string{"replay", recording, "--"}, h.Command...)...)
		if code != 0 || !strings.HasSuffix(out, "3 calls: 3 match, 0 differ\n") {
			t.Errorf("replay against the %s hook: exit %d\n%s%s", lang, code, out, errOut)
		}
	}

	// Version 2 of the Python hook reports rain in Beijing.
	h := weatherHook(t, "python")
	source, err := os.ReadFile(filepath.Join(h.Dir, "weather.py"))
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "weather.py")
	os.WriteFile(changed, bytes.Replace(source, []byte(`"temp": 15, "weather": "Sunny"`), []byte(`"temp": 15, "weather": "Rainy"`), 1), 0o644)
	code, out, errOut := hookwire(t, h, "replay", "--json", recording, "--", "python3", changed)
	var report struct {
		Calls []struct {
			Method, Tool string
			Match        bool
			Diffs        []struct {
				Path               string
				Recorded, Replayed string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != 1 {
		t.Fatalf("replay against the changed hook: exit %d (want 1), %v\n%s%s", code, err, out, errOut)
	}
	var differ []string
	for _, c := range report.Calls {
		for _, d := range c.Diffs {
			differ = append(differ, c.Method+" "+c.Tool+" "+d.Path+": "+d.Recorded+" -> "+d.Replayed)
		}
	}
	want := "hook.before_tool get_weather /result/result/for_llm: Beijing weather: Sunny, temperature 15°C, humidity 45% -> Beijing weather: Rainy, temperature 15°C, humidity 45%"
	if len(differ) != 1 || differ[0] != want {
		t.Errorf("differences:\n%s\nwant only:\n%s", strings.Join(differ, "\n"), want)
	}
}

// hookwire call sends every method of the protocol to a hook of each
// language: the weather hooks, which handle the llm and tool modes, and the
// Python approval gate, which approves. Each answers a valid reply to what
// it handles; to the rest, a valid reply or error -32601 (no handler),
// which call reports as an error reply.
func TestCallSendsEveryMethodToAHookOfEachLanguage(t *testing.T) {
	gate, _ := config(t, filepath.Join("approval-gate", "python", "hooks.json"))
	for _, c := range []struct {
		lang    string
		h       hook
		handles string
	}{
		{"python", weatherHook(t, "python"), "before_llm after_llm before_tool after_tool"},
		{"typescript", weatherHook(t, "typescript"), "before_llm after_llm before_tool after_tool"},
		{"go", weatherHook(t, "go"), "before_llm after_llm before_tool after_tool"},
		{"python approval gate", gate[0], "approve_tool"},
	} {
		for _, method := range []string{"hook.hello", "hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool", "hook.approve_tool", "hook.runtime_event", "hook.event"} {
			code, out, errOut := hookwire(t, c.h, append(append([]string{"call", "--"}, c.h.Command...), method)...)
			handled := method == "hook.hello" || strings.HasSuffix(method, "event") || strings.Contains(c.handles, strings.TrimPrefix(method, "hook."))
			switch {
			case code == 0 && strings.HasSuffix(method, "event") == (out == ""):
			case !handled && code == 3 && strings.Contains(out, `"code":-32601`):
			default:
				t.Errorf("%s: call %s: exit %d\nstdout: %s\nstderr: %s", c.lang, method, code, out, errOut)
			}
			if method == "hook.before_llm" && c.h.Name == "weather_plugin" && !strings.Contains(out, `"name":"get_weather"`) {
				t.Errorf("%s: before_llm did not add get_weather: %s", c.lang, out)
			}
		}
	}
}
