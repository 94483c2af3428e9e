package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// picoClawConfigs is PicoClaw's own config.json files, with its loader's
// verdict on each (../shared/wire/picoclaw-configs beside the repository,
// as CI has it).
const picoClawConfigs = "../../../../shared/wire/picoclaw-configs"

// Each of PicoClaw's own configuration files gets PicoClaw's verdict from
// both `hookwire validate --host picoclaw` and `hookwire run --config`:
// config.example.json is refused for the keys outside hooks that
// PicoClaw's loader refuses, each named at its place; every other one is
// accepted, with nothing said, and with PicoClaw's meaning: stages granted
// in pairs, "all" and legacy observe names, hooks.defaults taken.
func TestPicoClawsOwnConfigFilesGetItsVerdictFromValidateAndRun(t *testing.T) {
	want := map[string]string{ // the file, and the hooks line of its transcript
		"accepted-variants.json":       "hooks     a (process, priority 0): before_tool, after_tool, observes events; c (process, priority 0): observes events\n",
		"config.example.json":          "", // refused
		"config.example.loadable.json": "hooks     none\n",
		"docs-review-defaults.json":    "hooks     py_review_gate (process, priority 100): before_tool, approve_tool, after_tool, observes events\n",
		"docs-review.json":             "hooks     py_review_gate (process, priority 100): before_tool, approve_tool, after_tool, observes events\n",
		"docs-weather.json":            "hooks     weather_plugin (process, priority 100): before_llm, after_llm, before_tool, after_tool\n",
		"saved-default.json":           "hooks     none\n",
	}
	files, err := filepath.Glob(filepath.Join(picoClawConfigs, "*.json"))
	if err != nil || len(files) != len(want) {
		t.Fatalf("want the %d files of %s beside the repository, found %q (%v)", len(want), picoClawConfigs, files, err)
	}
	// The files name their hooks by a path relative to PicoClaw's working
	// directory: the weather example's script stands in for each.
	dir := t.TempDir()
	script, err := os.ReadFile("../../../examples/weather/script/weather_plugin.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"weather_plugin.py", "review_gate.py"} {
		os.WriteFile(filepath.Join(dir, name), script, 0o644)
	}
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "hi", "replies": []any{map[string]any{"content": "hello"}}})
	for _, file := range files {
		name := filepath.Base(file)
		abs, _ := filepath.Abs(file)
		t.Run(name, func(t *testing.T) {
			code, out, errOut := hookwire(t, "", "validate", "--host", "picoclaw", abs)
			var stdout, stderr bytes.Buffer
			run := exec.Command(hookwireBin, "run", "--config", abs, scenario)
			run.Dir, run.Stdout, run.Stderr = dir, &stdout, &stderr
			err := run.Run()
			if want[name] == "" {
				if code != exitFail || out != exampleRefusals(abs) {
					t.Errorf("validate: exit %d, want refused for the keys PicoClaw refuses:\n%s%s", code, out, errOut)
				}
				if err == nil || !strings.Contains(stderr.String(), "tools.web.brave.api_key: unknown key") {
					t.Errorf("run --config: %v, want refused:\n%s%s", err, &stdout, &stderr)
				}
				return
			}
			if code != exitOK || out != "" {
				t.Errorf("validate: exit %d, want accepted, nothing said:\n%s%s", code, out, errOut)
			}
			if err != nil || !strings.Contains(stdout.String(), want[name]) || !strings.Contains(stdout.String(), "done      hello") || stderr.Len() > 0 {
				t.Errorf("run --config: %v, want accepted with %q, nothing on stderr:\n%s%s", err, want[name], &stdout, &stderr)
			}
		})
	}
}

// hooks.defaults is PicoClaw's: its interceptor timeout bounds each call.
func TestPicoClawsInterceptorTimeoutBoundsASlowHook(t *testing.T) {
	dir := t.TempDir()
	config := writeJSON(t, dir, "config.json", map[string]any{"version": 3, "hooks": map[string]any{
		"defaults": map[string]any{"interceptor_timeout_ms": 50},
		"processes": map[string]any{"slow": map[string]any{
			"enabled": true, "command": []string{fixtureBin, "-slow", "2s"}, "intercept": []string{"before_tool"},
		}},
	}})
	call := map[string]any{"tool_calls": []any{map[string]any{"name": "echo_text", "arguments": map[string]any{"text": "hi"}}}}
	scenario := writeJSON(t, dir, "scenario.json", map[string]any{"prompt": "go", "replies": []any{call, map[string]any{"content": "done"}}})
	for _, host := range []string{"reference", "picoclaw"} {
		code, out, errOut := hookwire(t, "", "run", "--host", host, "--config", config, scenario)
		for _, want := range []string{
			"hook      slow hook.before_tool echo_text -> failed (fail open): no reply within 50ms",
			"hook      slow hook.after_tool echo_text -> failed (fail open): no reply within 50ms", // granted with before_tool
			"tool      echo_text {\"text\":\"hi\"} ran: hi",
		} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("--host %s: exit %d, the transcript lacks %q:\n%s%s", host, code, want, out, errOut)
			}
		}
	}
}

// exampleRefusals is what validate says of PicoClaw's config.example.json:
// the eight keys that its copy config.example.loadable.json leaves out.
func exampleRefusals(file string) string {
	var b strings.Builder
	for _, line := range []string{
		"48:7: PicoClaw refuses model_list[2]._comment: unknown key",
		"56:7: PicoClaw refuses model_list[3]._comment: unknown key",
		"250:7: PicoClaw refuses channel_list.wecom._comment: unknown key (known: allow_from, enabled, group_trigger, placeholder, reasoning_channel_id, settings, type, typing)",
		`322:9: PicoClaw refuses tools.web.brave.api_key: unknown key (did you mean "api_keys"?)`,
		`328:9: PicoClaw refuses tools.web.tavily.api_key: unknown key (did you mean "api_keys"?)`,
		`334:9: PicoClaw refuses tools.web.kagi.api_key: unknown key (did you mean "api_keys"?)`,
		`356:9: PicoClaw refuses tools.web.perplexity.api_key: unknown key (did you mean "api_keys"?)`,
		"564:5: PicoClaw refuses gateway._comment: unknown key (known: host, hot_reload, log_level, port)",
	} {
		b.WriteString(file + ":" + line + "\n")
	}
	return b.String()
}
