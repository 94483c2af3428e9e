package examples

import (
	"path/filepath"
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
