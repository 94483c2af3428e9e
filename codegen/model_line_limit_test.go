package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each request's over-limit answer is held to the schema: what the SDKs send
// instead of a reply longer than the host reads is a value of the method's
// result with a reason, or one of the table's errors.
func TestLoadHoldsTheOverLimitAnswersToTheSchema(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(fixture, "hookwire.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	const (
		apply     = `{"method": "paint.apply", "kind": "request", "mode": "steer", "params": "Paint", "result": "PaintReply", "actions": ["go", "stop", "retry_later"]`
		tick      = `{"method": "paint.tick", "kind": "notification", "mode": "watch", "params": "Tick"`
		lineLimit = `"lineLimit": {"defaultBytes": 100, "reason": "over {limit}", "cutMarker": "[{cut}]"}`
		codes     = `"errorCodes": [{"name": "StillWet", "code": -31000}]`
	)
	for _, c := range []struct{ rows, limit, want string }{
		{apply + `}`, lineLimit, "paint.apply: a request needs an overLimit"},
		{apply + `, "overLimit": {"result": {"action": "stop"}}}, ` + tick + `, "overLimit": {"error": -31000}}`, lineLimit, "paint.tick: a notification gets no reply"},
		{apply + `, "overLimit": {"keep": ["deny"], "result": {"action": "stop"}}}`, lineLimit, `keep: "deny" is not an action of paint.apply`},
		{apply + `, "overLimit": {"keep": ["go"], "result": {"action": "stop"}}}`, lineLimit, `keep: "go": Go has no reason member`},
		{apply + `, "overLimit": {"result": {"action": "go"}}}`, lineLimit, `result: "go": Go has no reason member`},
		{apply + `, "overLimit": {"result": {"action": 1}}}`, lineLimit, "result: its action must be a string"},
		{apply + `, "overLimit": {"result": {"action": "stop", "paint": "red"}}}`, lineLimit, `result: paint is "red", which is not a value of Stop.paint`},
		{apply + `, "overLimit": {"result": {"action": "retry_later", "after": true}}}`, lineLimit, "result: after is true, which is not a value of RetryLater.after"},
		{apply + `, "overLimit": {"result": {"action": "retry_later"}}}`, lineLimit, ""},
		{apply + `, "overLimit": {"result": {"action": "stop", "colour": "red"}}}`, lineLimit, "result: colour is not a member of Stop"},
		{apply + `, "overLimit": {"result": {"action": "stop", "reason": "mine"}}}`, lineLimit, "result: reason is not a member of Stop that the table may set"},
		{apply + `, "overLimit": {"result": {"action": "stop", "paint": {}}}}`, lineLimit, "only strings and booleans are supported"},
		{apply + `, "overLimit": {"keep": ["stop"]}}`, lineLimit, "a result, or an error, must go"},
		{apply + `, "overLimit": {"error": -32000}}`, lineLimit, "error -32000 is not one of errorCodes"},
		{apply + `, "overLimit": {"error": -31000, "keep": ["stop"]}}`, lineLimit, "an error goes instead of any result"},
		{apply + `, "overLimit": {"cut": {"action": "stop", "path": ["paint", "color"]}, "result": {"action": "stop"}}}`, lineLimit, "cut: Paint.color is not a string"},
		{apply + `, "overLimit": {"cut": {"action": "stop", "path": ["paint", "hue"]}, "result": {"action": "stop"}}}`, lineLimit, "cut: Paint has no member hue"},
		{apply + `, "overLimit": {"cut": {"action": "stop", "path": ["reason", "x"]}, "result": {"action": "stop"}}}`, lineLimit, "cut: Stop.reason is not an object"},
		{apply + `, "overLimit": {"cut": {"action": "stop", "path": []}, "result": {"action": "stop"}}}`, lineLimit, "cut: the path is empty"},
		{apply + `, "overLimit": {"error": -31000}}`, `"lineLimit": {"reason": "{limit}", "cutMarker": "{cut}"}`, "lineLimit: defaultBytes 0 is not a positive number"},
		{apply + `, "overLimit": {"error": -31000}}`, `"lineLimit": {"defaultBytes": 1, "reason": "too long", "cutMarker": "{cut}"}`, `lineLimit: reason "too long" must hold {limit} once`},
		{apply + `, "overLimit": {"error": -31000}}`, `"lineLimit": {"defaultBytes": 1, "reason": "{limit}", "cutMarker": "{cut}{cut}"}`, `lineLimit: cutMarker "{cut}{cut}" must hold {cut} once`},
	} {
		table := `{"version": 1, "methods": [` + c.rows + `], ` + codes + `, ` + c.limit + `}`
		_, err := Load(schema, []byte(table))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.rows, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error containing %q", c.rows, err, c.want)
		}
	}
}

// A table of notifications alone sends no reply, so it needs no line limit.
func TestATableWithoutRequestsNeedsNoLineLimit(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(fixture, "hookwire.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	table := `{"version": 1, "methods": [{"method": "paint.tick", "kind": "notification", "mode": "watch", "params": "Tick"}]}`
	if _, err := Load(schema, []byte(table)); err != nil {
		t.Fatal(err)
	}
}
