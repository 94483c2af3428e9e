package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestItOffersTheScriptsToolDefinition(t *testing.T) {
	got, err := newHook().Call(context.Background(), hookwire.MethodBeforeLLM,
		json.RawMessage(`{"model":"scripted","messages":[{"role":"user","content":"weather?"}],"tools":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"modify","request":{"model":"scripted","messages":[{"role":"user","content":"weather?"}],"tools":[{
		"type":"function",
		"function":{
			"name":"get_weather",
			"description":"Query weather information for a specified city",
			"parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g.: Beijing, Shanghai, Guangzhou"}},"required":["city"]}}}]}}`)
}

func TestItAnswersLikeTheScript(t *testing.T) {
	for city, want := range map[string]string{
		"Beijing":   `{"for_llm":"Beijing weather: Sunny, temperature 15°C, humidity 45%","for_user":"","silent":false,"is_error":false}`,
		"Shanghai":  `{"for_llm":"Shanghai weather: Cloudy, temperature 18°C, humidity 60%","for_user":"","silent":false,"is_error":false}`,
		"Guangzhou": `{"for_llm":"Guangzhou weather: Sunny, temperature 25°C, humidity 70%","for_user":"","silent":false,"is_error":false}`,
		"Shenzhen":  `{"for_llm":"Shenzhen weather: Cloudy, temperature 26°C, humidity 75%","for_user":"","silent":false,"is_error":false}`,
		"Atlantis":  `{"for_llm":"Weather data not found for city Atlantis","for_user":"","silent":false,"is_error":true}`,
	} {
		got, err := newHook().Call(context.Background(), hookwire.MethodBeforeTool,
			hookwire.BeforeToolParams{Tool: "get_weather", Arguments: map[string]any{"city": city}})
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, got, `{"action":"respond","result":`+want+`}`)
	}
}

func TestOtherToolsPassThrough(t *testing.T) {
	got, err := newHook().Call(context.Background(), hookwire.MethodBeforeTool,
		hookwire.BeforeToolParams{Tool: "read_file", Arguments: map[string]any{"path": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, got, `{"action":"continue"}`)
}

// run plays the weather scenario with the hooks of hooksFile and returns
// the JSON transcript without its timings.
func run(t *testing.T, cli, hooksFile string) []string {
	t.Helper()
	cmd := exec.Command(cli, "run", "--json", "--hooks", hooksFile, filepath.Join("..", "scenario.json"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookwire run --hooks %s: %v\n%s", hooksFile, err, stderr.String())
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		delete(rec, "duration_ms")
		b, _ := json.Marshal(rec)
		lines = append(lines, string(b))
	}
	return lines
}

// Under the reference runtime, with the committed hooks.json, the hook
// answers the LLM's get_weather call, passes the conformance suite, and the
// turn goes exactly as with the plain script of the source documents.
func TestUnderTheReferenceRuntimeItAnswersGetWeatherAsThePlainScriptDoes(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "hookwire")
	t.Cleanup(func() { os.Remove("weather") })
	for _, build := range []*exec.Cmd{
		exec.Command("go", "build", "-o", cli, "github.com/hookwire/hookwire/core/cmd/hookwire"),
		exec.Command("go", "build", "-o", "weather", "."), // what hooks.json runs
	} {
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", build, err, out)
		}
	}

	got := run(t, cli, "hooks.json")
	var answered bool
	for _, line := range got {
		if line == `{"arguments":{"city":"Beijing"},"by":"weather_plugin","outcome":"answered","result":{"for_llm":"Beijing weather: Sunny, temperature 15°C, humidity 45%","is_error":false},"tool":"get_weather","type":"tool"}` {
			answered = true
		}
	}
	if !answered || !strings.Contains(strings.Join(got, "\n"), `"status":"done","type":"turn_end"`) {
		t.Errorf("get_weather was not answered by the hook, or the turn failed:\n%s", strings.Join(got, "\n"))
	}

	if out, err := exec.Command(cli, "conformance", "--", "./weather").CombinedOutput(); err != nil {
		t.Errorf("hookwire conformance: %v\n%s", err, out)
	}

	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 runs the plain script to compare with: %v", err)
	}
	want := run(t, cli, filepath.Join("..", "hooks.json"))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the Go hook's transcript:\n%s\ndiffers from the plain script's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
