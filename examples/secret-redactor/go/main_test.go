package main

import (
	"context"
	"encoding/json"
	"testing"

	hookwire "github.com/hookwire/hookwire/sdk-go"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SECRET_KEY=abc123", "SECRET_KEY=***"},
		{`export DB_PASSWORD="two words"`, `export DB_PASSWORD=***`},
		{"client_secret: 'x-y-z'", "client_secret: ***"},
		{`{"api_key": "k-123", "user": "ann"}`, `{"api_key": ***, "user": "ann"}`},
		{"GITHUB_TOKEN=ghp_EXAMPLEexampleEXAMPLEexample0123456789", "GITHUB_TOKEN=***"},
		{"pushed with ghp_EXAMPLEexampleEXAMPLEexample0123456789 ok", "pushed with ghp_*** ok"},
		{"key id AKIAIOSFODNN7EXAMPLE", "key id AKIA***"},
		{"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer ***"},
		{"sk-proj-abcdefghijklmnopqrstuvwx", "sk-***"},
		{"xoxb-0000000000-EXAMPLE-example", "xoxb-***"},
		{"token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJleGFtcGxlIn0.c2lnbmF0dXJl", "token eyJ***"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY----- *** -----END RSA PRIVATE KEY-----"},
		// Not secrets.
		{"max_tokens: 4096", "max_tokens: 4096"},
		{"APP_NAME=weather-bot", "APP_NAME=weather-bot"},
		{"the password policy changed", "the password policy changed"},
		{"ask a skeptic", "ask a skeptic"},
	} {
		if got, _ := redact(tc.in); got != tc.want {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func afterTool(t *testing.T, params string) map[string]any {
	t.Helper()
	raw, err := newHook().Call(context.Background(), hookwire.MethodAfterTool, json.RawMessage(params))
	if err != nil {
		t.Fatal(err)
	}
	var result map[string]any
	if err := json.Unmarshal(raw, &result); err != nil {
		t.Fatal(err)
	}
	return result
}

func TestCleanOutputPassesThrough(t *testing.T) {
	got := afterTool(t, `{"tool":"read_file","arguments":{"path":"a"},"result":{"for_llm":"nothing to hide"}}`)
	if got["action"] != "continue" || len(got) != 1 {
		t.Errorf("got %v, want continue", got)
	}
}

// A modify carries the whole object back, unknown members included: the
// host replaces what it sent with it.
func TestSecretsAreMaskedAndTheRestIsKept(t *testing.T) {
	got := afterTool(t, `{"meta":{"TurnID":"t1"},"tool":"read_file","arguments":{"path":"a"},"duration":5,"x_host":1,
		"result":{"for_llm":"SECRET_KEY=abc","for_user":"token ghp_EXAMPLEexampleEXAMPLEexample0123456789","is_error":false,"x_tag":"kept"}}`)
	want := `{"action":"modify","reason":"masked 2 secrets","result":{"meta":{"TurnID":"t1"},"tool":"read_file","arguments":{"path":"a"},"duration":5,"x_host":1,
		"result":{"for_llm":"SECRET_KEY=***","for_user":"token ghp_***","is_error":false,"x_tag":"kept"}}}`
	var w map[string]any
	json.Unmarshal([]byte(want), &w)
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(w)
	if string(a) != string(b) {
		t.Errorf("got  %s\nwant %s", a, b)
	}
}
