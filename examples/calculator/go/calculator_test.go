package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

// calcCase is a case of ../cases.json, the table the three hooks share.
type calcCase struct {
	Expression json.RawMessage `json:"expression"` // a string, or [text, times] pieces
	Result     *string         `json:"result"`
	Error      *string         `json:"error"`
}

func (c calcCase) expression(t *testing.T) string {
	t.Helper()
	var s string
	if json.Unmarshal(c.Expression, &s) == nil {
		return s
	}
	var pieces [][]any
	if err := json.Unmarshal(c.Expression, &pieces); err != nil {
		t.Fatalf("expression %s: %v", c.Expression, err)
	}
	var b strings.Builder
	for _, p := range pieces {
		text, _ := p[0].(string)
		times, _ := p[1].(float64)
		b.WriteString(strings.Repeat(text, int(times)))
	}
	return b.String()
}

func cases(t testing.TB) []calcCase {
	t.Helper()
	data, err := os.ReadFile("../cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []calcCase }
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Cases) == 0 {
		t.Fatalf("../cases.json: %v", err)
	}
	return doc.Cases
}

func TestEveryCaseOfTheTable(t *testing.T) {
	for _, c := range cases(t) {
		expr := c.expression(t)
		got, err := evaluate(expr)
		switch {
		case c.Error != nil && (err == nil || err.Error() != *c.Error):
			t.Errorf("%.40q: got %q, %v; want the error %q", expr, got, err, *c.Error)
		case c.Result != nil && (err != nil || got != *c.Result):
			t.Errorf("%.40q: got %q, %v; want %q", expr, got, err, *c.Result)
		}
	}
}

func TestCalculateAnswersWithAResultOrAnErrorResult(t *testing.T) {
	for expr, want := range map[string]string{
		"15 * 9 / 5 + 32": `{"action":"respond","result":{"for_llm":"Calculation result: 59","is_error":false}}`,
		"9 ** 9 ** 9":     `{"action":"respond","result":{"for_llm":"Calculation error: exponent too large: 9 ** 387420489","is_error":true}}`,
	} {
		got, err := newHook().Call(context.Background(), hookwire.MethodBeforeTool,
			hookwire.BeforeToolParams{Tool: "calculate", Arguments: map[string]any{"expression": expr}})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s: got  %s\nwant %s", expr, got, want)
		}
	}
}

func TestOtherToolsPassThrough(t *testing.T) {
	got, err := newHook().Call(context.Background(), hookwire.MethodBeforeTool,
		hookwire.BeforeToolParams{Tool: "read_file", Arguments: map[string]any{"path": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"action":"continue"}` {
		t.Errorf("got %s", got)
	}
}

// Whatever the LLM writes, evaluate answers without a panic, with a value
// or a calcError; and a value reads back as itself, so that the LLM can
// use an answer in its next expression.
func FuzzEvaluate(f *testing.F) {
	for _, c := range cases(f) {
		if len(c.Expression) < 200 {
			var s string
			if json.Unmarshal(c.Expression, &s) == nil {
				f.Add(s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := evaluate(expr)
		if err != nil {
			if _, ok := err.(calcError); !ok {
				t.Fatalf("%q: %T %v", expr, err, err)
			}
			return
		}
		if again, err := evaluate(v); err != nil || again != v {
			t.Errorf("%q = %q, which reads back as %q, %v", expr, v, again, err)
		}
	})
}
