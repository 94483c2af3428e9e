package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The calculator hooks, one per language, each run as its hooks.json runs it.
var calculatorHooks = []string{
	filepath.Join("calculator", "python", "hooks.json"),
	filepath.Join("calculator", "typescript", "hooks.json"),
	filepath.Join("calculator", "go", "hooks.json"),
}

// calcCase is a case of calculator/cases.json, the table the three hooks
// share: an expression, and the text the calculate tool answers it with.
type calcCase struct {
	expression string
	forLLM     string
	isError    bool
}

func calculatorCases(t *testing.T) []calcCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("calculator", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Expression json.RawMessage `json:"expression"` // a string, or [text, times] pieces
			Result     *string         `json:"result"`
			Error      *string         `json:"error"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Cases) == 0 {
		t.Fatalf("calculator/cases.json: %v", err)
	}
	var cases []calcCase
	for _, c := range doc.Cases {
		var expr string
		if json.Unmarshal(c.Expression, &expr) != nil {
			var pieces [][]any
			if err := json.Unmarshal(c.Expression, &pieces); err != nil {
				t.Fatalf("expression %s: %v", c.Expression, err)
			}
			for _, p := range pieces {
				text, _ := p[0].(string)
				times, _ := p[1].(float64)
				expr += strings.Repeat(text, int(times))
			}
		}
		switch {
		case c.Error != nil:
			cases = append(cases, calcCase{expr, "Calculation error: " + *c.Error, true})
		case c.Result != nil:
			cases = append(cases, calcCase{expr, "Calculation result: " + *c.Result, false})
		default:
			t.Fatalf("the case %s has neither a result nor an error", c.Expression)
		}
	}
	return cases
}

// short is an expression as a test message shows it.
func short(expr string) string {
	if len(expr) > 40 {
		return expr[:40] + "..."
	}
	return expr
}

// Under the runtime, the LLM calls calculate once per case of the shared
// table, in one reply: each hook, as a process speaking the protocol,
// answers every call itself, arithmetic with its value and every hostile
// expression with an error result that says which rule refused it (the
// exponent too large, a name, too deep, too long) — a refusal by rule, so
// 9 ** 9 ** 9 was never computed.
func TestCalculatorAnswersEveryCaseOfTheTableUnderTheRuntime(t *testing.T) {
	cases := calculatorCases(t)
	var calls []map[string]any
	for _, c := range cases {
		calls = append(calls, map[string]any{"name": "calculate", "arguments": map[string]any{"expression": c.expression}})
	}
	scenario := filepath.Join(t.TempDir(), "scenario.json")
	data, _ := json.Marshal(map[string]any{
		"prompt":  "Calculate these.",
		"replies": []any{map[string]any{"tool_calls": calls}, map[string]any{"content": "Done."}},
	})
	if err := os.WriteFile(scenario, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, hooksFile := range calculatorHooks {
		t.Run(filepath.Base(filepath.Dir(hooksFile)), func(t *testing.T) {
			tools := ofType(play(t, hooksFile, scenario, nil), "tool")
			if len(tools) != len(cases) {
				t.Fatalf("%d tool records for %d calls", len(tools), len(cases))
			}
			for i, c := range cases {
				r := tools[i]
				if r.Tool != "calculate" || r.Outcome != "answered" || r.By != "calculator" || r.Result == nil {
					t.Errorf("%q: not answered by the hook: %s", short(c.expression), r.line)
					continue
				}
				if r.Result.ForLLM != c.forLLM || r.Result.IsError != c.isError {
					t.Errorf("%q: answered %q (is_error %v), want %q (is_error %v)", short(c.expression), r.Result.ForLLM, r.Result.IsError, c.forLLM, c.isError)
				}
			}
		})
	}
}

// The example's scenario, played with each hook: the same transcript,
// record for record; the LLM's Python is refused, its arithmetic answered.
func TestCalculatorScenarioGivesTheSameTranscriptInEveryLanguage(t *testing.T) {
	scenario := filepath.Join("calculator", "scenario.json")
	var want []record
	for _, hooksFile := range calculatorHooks {
		got := play(t, hooksFile, scenario, nil)
		if want == nil {
			want = got
			equal(t, "tool calls", tools(got), []string{
				"get_weather answered by calculator: Beijing weather: Sunny, temperature 15°C, humidity 45%",
				`calculate answered by calculator: Calculation error: names are not allowed: "__import__" at position 1`,
				"calculate answered by calculator: Calculation result: 59",
			})
			if r := ofType(got, "tool")[1].Result; r == nil || !r.IsError {
				t.Errorf("the refusal is not an error result: %+v", r)
			}
			continue
		}
		if lines(got) != lines(want) {
			t.Errorf("%s gives the transcript:\n%s\nwhere %s gives:\n%s", hooksFile, lines(got), calculatorHooks[0], lines(want))
		}
	}
}

// Under PicoClaw's host, the hook offers its two tools in before_llm and
// the host reverts them, saying so: the scripted LLM, which calls
// get_weather, fails the turn, in every language.
func TestCalculatorUnderPicoClawItsToolsAreRevertedByTheHost(t *testing.T) {
	for _, hooksFile := range calculatorHooks {
		t.Run(filepath.Base(filepath.Dir(hooksFile)), func(t *testing.T) {
			_, cfg := config(t, hooksFile)
			cmd := exec.Command(cli, "run", "--host", "picoclaw", "--json", "--hooks", cfg, filepath.Join("calculator", "scenario.json"))
			cmd.Env = environ(nil)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "calls get_weather, but the request offers no such tool") {
				t.Fatalf("hookwire run --host picoclaw: %v, want the turn to fail on get_weather\n%s", err, stderr.String())
			}
			records := parseTranscript(t, stdout.String())
			host := ofType(records, "host")
			if len(host) != 1 || host[0].Hook != "calculator" || !strings.Contains(host[0].Reason, "added calculate, get_weather") {
				t.Errorf("want one host record saying the host reverted both tools, got %+v", host)
			}
			var offered []string
			json.Unmarshal([]byte(lineOf(t, stdout.String(), "llm_request")), &struct {
				Tools *[]string `json:"tools"`
			}{&offered})
			if !slices.Equal(offered, []string{"echo_text", "read_file"}) {
				t.Errorf("the LLM was offered %v, want the built-in tools alone", offered)
			}
		})
	}
}

// The way that works under PicoClaw: its tools.mcp.servers, here the
// scenario's mcp_servers, mount `hookwire mcp` on the hook, and both tools
// reach the LLM as MCP tools, answered by the hook through MCP.
func TestCalculatorUnderPicoClawTheToolsReachTheLLMThroughMCP(t *testing.T) {
	cmd := exec.Command(cli, "run", "--host", "picoclaw", "--json", "scenario.json")
	cmd.Dir = filepath.Join("calculator", "mcp")
	cmd.Env = environ(nil)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookwire run --host picoclaw: %v\n%s", err, stderr.String())
	}
	var offered []string
	json.Unmarshal([]byte(lineOf(t, stdout.String(), "llm_request")), &struct {
		Tools *[]string `json:"tools"`
	}{&offered})
	if !slices.Equal(offered, []string{"echo_text", "read_file", "calculate", "get_weather"}) {
		t.Errorf("the LLM was offered %v, want calculate and get_weather from MCP", offered)
	}
	equal(t, "tool calls", tools(parseTranscript(t, stdout.String())), []string{
		"get_weather ran: Beijing weather: Sunny, temperature 15°C, humidity 45%",
		`calculate ran: Calculation error: names are not allowed: "__import__" at position 1`,
		"calculate ran: Calculation result: 59",
	})
}

// `hookwire mcp` serves both tools of each hook, and an MCP client's
// calculate calls get every case of the shared table right: its value, or
// an error result (isError) with the table's message.
func TestHookwireMCPServesTheCalculatorOfEveryLanguage(t *testing.T) {
	cases := calculatorCases(t)
	for _, hooksFile := range calculatorHooks {
		t.Run(filepath.Base(filepath.Dir(hooksFile)), func(t *testing.T) {
			ctx := context.Background()
			session := mcpSession(t, hooksFile)
			list, err := session.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.Name == "calculate" {
					schema, _ := tool.InputSchema.(map[string]any)
					props, _ := schema["properties"].(map[string]any)
					if e, _ := props["expression"].(map[string]any); e["type"] != "string" {
						t.Errorf("calculate's input schema %v has no string expression", tool.InputSchema)
					}
				}
			}
			if !slices.Equal(names, []string{"calculate", "get_weather"}) {
				t.Fatalf("tools/list gave %v, want calculate and get_weather", names)
			}
			for _, c := range cases {
				res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "calculate", Arguments: map[string]any{"expression": c.expression}})
				if err != nil {
					t.Fatalf("%q: %v", short(c.expression), err)
				}
				if got := text(t, res); got != c.forLLM || res.IsError != c.isError {
					t.Errorf("%q: %q (isError %v), want %q (isError %v)", short(c.expression), got, res.IsError, c.forLLM, c.isError)
				}
			}
			// An expression that is not a string is the SDK's to refuse,
			// in its own words, as an error result too.
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "calculate", Arguments: map[string]any{"expression": 42}})
			if err != nil || !res.IsError || !strings.Contains(text(t, res), "expression") {
				t.Errorf("calculate 42: %v, %+v; want an error result naming expression", err, res)
			}
		})
	}
}
