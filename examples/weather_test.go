package examples

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The weather plugin, as the source document's plain script and with each
// SDK, plays the weather scenario the same way: the same JSON transcript,
// record for record, apart from timings.
func TestTheFourWeatherHooksGiveTheSameTranscript(t *testing.T) {
	scenario := filepath.Join("weather", "scenario.json")
	want := play(t, filepath.Join("weather", "hooks.json"), scenario, nil) // the plain script
	if tool := ofType(want, "tool"); len(tool) != 1 || tool[0].Outcome != "answered" || tool[0].By != "weather_plugin" {
		t.Fatalf("the plain script did not answer get_weather:\n%s", lines(want))
	}
	for _, lang := range []string{"python", "typescript", "go"} {
		got := play(t, filepath.Join("weather", lang, "hooks.json"), scenario, nil)
		if lines(got) != lines(want) {
			t.Errorf("the %s hook's transcript:\n%s\ndiffers from the plain script's:\n%s", lang, lines(got), lines(want))
		}
	}
}

// Under PicoClaw's host the same hook offers get_weather in before_llm, and
// the host reverts the change, saying so in the transcript: the LLM is
// never offered the tool, and the scripted LLM, which calls it, fails the
// turn. PicoClaw takes a relative dir from its working directory, so the
// run starts in the weather folder.
func TestUnderPicoClawGetWeatherIsOfferedByTheHookButRevertedByTheHost(t *testing.T) {
	cmd := exec.Command(cli, "run", "--host", "picoclaw", "--json", "--hooks", "hooks.json", "scenario.json")
	cmd.Dir = "weather"
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "offers no such tool") {
		t.Fatalf("hookwire run --host picoclaw: %v, want the turn to fail on get_weather\n%s", err, stderr.String())
	}
	records := parseTranscript(t, stdout.String())
	hooks := ofType(records, "hook")
	if len(hooks) == 0 || hooks[0].Method != "hook.before_llm" || hooks[0].Action != "modify" {
		t.Fatalf("the hook did not modify the first request:\n%s", stdout.String())
	}
	host := ofType(records, "host")
	if len(host) != 1 || host[0].Hook != "weather_plugin" || !strings.Contains(host[0].Reason, "added get_weather") || !strings.Contains(host[0].Reason, "PicoClaw lets no hook change the tools") {
		t.Errorf("want one host record saying the host reverted get_weather, got %+v", host)
	}
	var offered []string
	if err := json.Unmarshal([]byte(lineOf(t, stdout.String(), "llm_request")), &struct {
		Tools *[]string `json:"tools"`
	}{&offered}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(offered, "get_weather") {
		t.Errorf("the LLM was offered %v; PicoClaw reverts get_weather", offered)
	}
}

// parseTranscript reads the records of a JSON Lines transcript.
func parseTranscript(t *testing.T, transcript string) []record {
	t.Helper()
	var records []record
	for _, line := range strings.Split(strings.TrimSpace(transcript), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("transcript line %q: %v", line, err)
		}
		records = append(records, r)
	}
	return records
}

// lineOf is the first transcript line of a type.
func lineOf(t *testing.T, transcript, typ string) string {
	t.Helper()
	for _, line := range strings.Split(transcript, "\n") {
		if strings.HasPrefix(line, `{"type":"`+typ+`"`) {
			return line
		}
	}
	t.Fatalf("no %s line in:\n%s", typ, transcript)
	return ""
}
