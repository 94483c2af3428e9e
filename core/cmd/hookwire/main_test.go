package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/internal/vectors"
	"github.com/hookwire/hookwire/core/schema"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

const (
	weatherHooks    = "../../../examples/weather/hooks.json"
	weatherScenario = "../../../examples/weather/scenario.json"
)

// hookwire runs the command in-process.
func hookwire(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestWeatherDemoShowsTheLLMCallingTheHooksTool(t *testing.T) {
	code, out, errOut := hookwire(t, "", "run", "--hooks", weatherHooks, weatherScenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"llm #1    offered tools: echo_text, read_file, get_weather\n",
		"llm #1    calls get_weather {\"city\":\"Beijing\"}\n",
		"hook      weather_plugin hook.before_tool get_weather -> respond",
		"tool      get_weather {\"city\":\"Beijing\"} answered by hook weather_plugin: Beijing weather: Sunny, temperature 15°C, humidity 45%\n",
		"done      Beijing is sunny today, temperature 15°C.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
}

func TestWithoutTheHookTheLLMIsNotOfferedTheTool(t *testing.T) {
	code, out, errOut := hookwire(t, "", "run", weatherScenario)
	if code != exitFail {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	want := "hookwire run: the turn failed: scripted LLM: reply 1 calls get_weather, but the request offers no such tool (it offers: echo_text, read_file)\n"
	if errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// The JSON transcript is the same from run to run once duration_ms is
// dropped; the golden file is what other languages' weather hooks must
// reproduce.
func TestWeatherJSONTranscriptIsStable(t *testing.T) {
	code, out, errOut := hookwire(t, "", "run", "--json", "--hooks", weatherHooks, weatherScenario)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	got := dropTimings(t, out)
	golden := filepath.Join("testdata", "weather.jsonl")
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

func dropTimings(t *testing.T, jsonl string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if _, ok := rec["duration_ms"]; ok {
			i := strings.Index(line, `,"duration_ms":`)
			line = line[:i] + "}"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func TestTraceHasBothDirectionsAndValidates(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	if code, _, errOut := hookwire(t, "", "run", "--trace", trace, "--hooks", weatherHooks, weatherScenario); code != exitOK {
		t.Fatalf("run: %s", errOut)
	}
	b, _ := os.ReadFile(trace)
	if sent, received := strings.Count(string(b), `"dir":"send"`), strings.Count(string(b), `"dir":"recv"`); sent != 4 || received != 4 {
		t.Errorf("trace has %d lines sent and %d received, want 4 and 4 (hello, before_llm, before_tool, before_llm):\n%s", sent, received, b)
	}
	if code, out, errOut := hookwire(t, "", "validate", trace); code != exitOK || out != "" {
		t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
	}
}

func TestValidateAcceptsEveryValidVectorAndRejectsEveryInvalidOne(t *testing.T) {
	all, err := vectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	var valid, invalid []string
	paths := map[string]string{}
	for _, v := range all {
		if v.Valid {
			valid = append(valid, filepath.Join(vectors.Dir(), "valid", v.Name+".json"))
			continue
		}
		f := filepath.Join(vectors.Dir(), "invalid", v.Name+".json")
		invalid = append(invalid, f)
		paths[f] = *v.Path
	}
	if len(valid) == 0 || len(invalid) == 0 {
		t.Fatalf("%d valid and %d invalid vectors", len(valid), len(invalid))
	}
	if code, out, errOut := hookwire(t, "", append([]string{"validate"}, valid...)...); code != exitOK || out != "" {
		t.Errorf("valid vectors: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ := hookwire(t, "", append([]string{"validate"}, invalid...)...)
	if code != exitFail {
		t.Errorf("invalid vectors: exit %d", code)
	}
	faults := map[string]string{}
	at := regexp.MustCompile(`^(.*):\d+:\d+: (.*)$`) // FILE:LINE:COL: fault
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		m := at.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("not FILE:LINE:COL: fault: %s", line)
			continue
		}
		file, fault := m[1], m[2]
		if _, dup := faults[file]; dup {
			t.Errorf("%s: more than one fault reported", file)
		}
		faults[file] = fault
	}
	for f, path := range paths {
		fault, ok := faults[f]
		shown := path
		if path == "" {
			shown = "(message)"
		}
		if !ok {
			t.Errorf("%s: accepted", filepath.Base(f))
		} else if !strings.HasPrefix(fault, shown+": ") {
			t.Errorf("%s: fault %q, want it at %q", filepath.Base(f), fault, shown)
		}
	}
}

func TestValidateJSONLines(t *testing.T) {
	dir := t.TempDir()
	lines := filepath.Join(dir, "wire.jsonl")
	os.WriteFile(lines, []byte(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"h","version":1,"modes":["tool"]}}
{"jsonrpc":"2.0","id":1,"result":{"ok":true}}

{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"bash","arguments":{"command":"ls"}}}
{"jsonrpc":"2.0","id":2,"result":{"action":"deny_tool"}}
{"jsonrpc":"2.0","id":9,"result":{"action":"continue"}}
not json
`), 0o644)
	code, out, _ := hookwire(t, "", "validate", lines)
	want := lines + ":5:34: /result/reason: required member reason is missing (rule required)\n" +
		lines + ":6:1: (message): a response names no method: say which method it answers (rule method)\n" +
		lines + ":7:1: (message): not a JSON object"
	if code != exitFail || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 3 {
		t.Errorf("exit %d, output\n%s\nwant\n%s...", code, out, want)
	}
	code, out, _ = hookwire(t, `{"jsonrpc":"2.0","id":7,"result":{"action":"respond","result":{"for_llm":"x"}}}`, "validate", "--method", "hook.after_tool", "-")
	if code != exitFail || !strings.HasPrefix(out, "stdin:1:35: /result/action: action \"respond\" is not allowed in hook.after_tool") {
		t.Errorf("exit %d, output %q", code, out)
	}
	code, out, _ = hookwire(t, `{"jsonrpc":"2.0","id":7,"result":{"action":"respond","result":{"for_llm":"x"}}}`, "validate", "-", "--method", "hook.before_tool")
	if code != exitOK || out != "" {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestBadFlagsAndFilesGetOneLine(t *testing.T) {
	dir := t.TempDir()
	badScenario := filepath.Join(dir, "scenario.json")
	os.WriteFile(badScenario, []byte(`{"prompt": "hi", "replies": [{"contnt": "x"}]}`), 0o644)
	badHooks := filepath.Join(dir, "hooks.json")
	os.WriteFile(badHooks, []byte(`{"hooks": {"processes": {"w": {"intercept": ["before_tools"]}}}}`), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "hookwire runs agent hooks"},
		{[]string{"frobnicate"}, exitUsage, `hookwire: unknown command "frobnicate"`},
		{[]string{"run", "--jsn", weatherScenario}, exitUsage, "hookwire run: flag provided but not defined: -jsn (see hookwire run --help)"},
		{[]string{"run"}, exitUsage, "hookwire run: need exactly one scenario file"},
		{[]string{"run", filepath.Join(dir, "missing.json")}, exitFail, "hookwire run: open " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{[]string{"run", badScenario}, exitFail, "hookwire run: " + badScenario + ": replies[0].contnt: unknown key (known: content, tool_calls)"},
		{[]string{"run", "--hooks", badHooks, weatherScenario}, exitFail, "hookwire run: " + badHooks + `: hooks.processes.w.intercept[0]: unknown stage "before_tools"`},
		{[]string{"validate"}, exitUsage, "hookwire validate: need at least one file"},
		{[]string{"validate", "--method"}, exitUsage, "hookwire validate: flag needs an argument: -method"},
		{[]string{"validate", filepath.Join(dir, "nope.json")}, exitFail, "hookwire validate: open " + filepath.Join(dir, "nope.json")},
		{[]string{"schema", "extra"}, exitUsage, "hookwire schema: takes no arguments"},
	} {
		code, out, errOut := hookwire(t, "", tc.args...)
		if code != tc.code || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("hookwire %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
		if tc.args != nil && (strings.Count(errOut, "\n") != 1 || out != "") {
			t.Errorf("hookwire %s: want one line on stderr and nothing on stdout, got %q and %q", strings.Join(tc.args, " "), errOut, out)
		}
	}
}

func TestHelpOnEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"run", "--help"}, {"validate", "-h"}, {"schema", "--help"}, {"help", "run"}} {
		code, out, errOut := hookwire(t, "", args...)
		if code != exitOK || errOut != "" || !strings.Contains(out, "Usage:") {
			t.Errorf("hookwire %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
		}
	}
}

func TestSchemaPrintsTheSchema(t *testing.T) {
	code, out, _ := hookwire(t, "", "schema")
	want, err := schema.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if code != exitOK || out != string(want) {
		t.Errorf("exit %d; the output is not schema.JSON()", code)
	}
}

func TestAHookThatCannotStartIsNamedWithItsLastWords(t *testing.T) {
	hooks := filepath.Join(t.TempDir(), "hooks.json")
	os.WriteFile(hooks, []byte(`{"hooks": {"enabled": true, "processes": {"broken": {
		"enabled": true, "intercept": ["before_tool"],
		"command": ["python3", "-c", "import sys; print('no config found', file=sys.stderr); sys.exit(3)"]}}}}`), 0o644)
	code, out, errOut := hookwire(t, "", "run", "--hooks", hooks, weatherScenario)
	want := "[broken] no config found\n" +
		`hookwire run: hook broken: hook.hello: hook exited with status 3 (last stderr line: "no config found")` + "\n"
	if code != exitFail || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errOut, want)
	}
}

// TestEveryCommandHasItsPageLinkedFromCoreREADME: core/README.md's table
// of commands links each command to its page under docs/, and the page's
// title names the command.
func TestEveryCommandHasItsPageLinkedFromCoreREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// A row: | what you want to do | `hookwire a`, `hookwire b` | [page](../docs/page.md) |
	row := regexp.MustCompile(`(?m)^\| .* \| (.*) \| \[[^]]*\]\(\.\./docs/([\w-]+\.md)\) \|$`)
	command := regexp.MustCompile("`hookwire ([\\w-]+)`")
	pages := map[string]string{} // command name -> its page
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		for _, name := range command.FindAllStringSubmatch(m[1], -1) {
			pages[name[1]] = m[2]
		}
	}
	for _, c := range commands {
		page, ok := pages[c.name]
		if !ok {
			t.Errorf("core/README.md's table of commands has no row for hookwire %s", c.name)
			continue
		}
		doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", page))
		if err != nil {
			t.Errorf("hookwire %s: %v", c.name, err)
			continue
		}
		title, _, _ := strings.Cut(string(doc), "\n")
		named := strings.Contains(title, "`hookwire "+c.name+"`") || strings.Contains(title, "`"+c.name+"`")
		if !strings.HasPrefix(title, "# ") || !named {
			t.Errorf("docs/%s's title does not name hookwire %s: %s", page, c.name, title)
		}
	}
}
