// validate's checks of the protocol's records: one JSON-RPC message, a
// vector of schema/testdata, a trace in JSON Lines.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/schema"
	"github.com/tailscale/hujson"
)

// message checks a file that is one JSON-RPC message.
func (c *checker) message(data []byte, root *hujson.Value) []fault {
	var faults []fault
	for _, f := range c.v.Faults(data, c.method) {
		faults = append(faults, fault{pointerOffset(root, f.Path), f.Error()})
	}
	return faults
}

// vector is a file of schema/testdata.
type vector struct {
	Method  string          `json:"method"`
	Message json.RawMessage `json:"message"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Def     string          `json:"def"`
	Value   json.RawMessage `json:"value"`
}

func (c *checker) vector(data []byte, root *hujson.Value) []fault {
	var vec vector
	if err := json.Unmarshal(data, &vec); err != nil {
		return []fault{{root.StartOffset, "not a test vector: " + err.Error()}}
	}
	var faults []*schema.ValidationError
	var at string
	switch {
	case vec.Message != nil:
		faults, at = c.v.Faults(vec.Message, vec.Method), "/message"
	case vec.Params != nil:
		faults, at = c.v.ParamsFaults(vec.Method, vec.Params), "/params"
	case vec.Result != nil:
		faults, at = c.v.ResultFaults(vec.Method, vec.Result), "/result"
	case vec.Def != "":
		faults, at = c.v.DefFaults(vec.Def, vec.Value), "/value"
	default:
		return []fault{{root.StartOffset, `a vector needs "message", "params", "result" or "def"`}}
	}
	var out []fault
	for _, f := range faults {
		out = append(out, fault{pointerOffset(root, at+f.Path), f.Error()})
	}
	return out
}

// trace checks JSON Lines: messages, or trace records of hookwire run. A
// file that is one JSON value (parsed) is one record, however it is laid
// out.
func (c *checker) trace(data []byte, root *hujson.Value, parsed bool) []fault {
	type record struct {
		off  int
		text []byte
	}
	var records []record
	if parsed {
		records = []record{{root.StartOffset, data[root.StartOffset:root.EndOffset]}}
	} else {
		off := 0
		for line := range bytes.Lines(data) {
			lead := len(line) - len(bytes.TrimLeft(line, " \t\r\n"))
			if t := bytes.TrimSpace(line); len(t) > 0 {
				records = append(records, record{off + lead, t})
			}
			off += len(line)
		}
	}
	if len(records) == 0 {
		return []fault{{-1, "no message in the file"}}
	}
	var faults []fault
	requests := map[string]string{} // hook + id -> method
	for _, r := range records {
		tree, parsed := parseTree(r.text)
		if !parsed || !tree.IsStandard() {
			for _, f := range c.v.Faults(r.text, c.method) { // not a JSON object
				faults = append(faults, fault{r.off, f.Error()})
			}
			continue
		}
		hook, msg, ptr, err := unwrapTrace(r.text)
		if err != nil {
			faults = append(faults, fault{r.off, err.Error()})
			continue
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		_ = json.Unmarshal(msg, &head)
		answers := c.method
		if head.Method != nil && len(head.ID) > 0 {
			requests[hook+" "+string(head.ID)] = *head.Method
		} else if head.Method == nil && answers == "" {
			answers = requests[hook+" "+string(head.ID)]
		}
		at := tree
		if found := tree.Find(ptr); ptr != "" && found != nil {
			at = found
		}
		for _, f := range c.v.Faults(msg, answers) {
			faults = append(faults, fault{r.off + pointerOffset(at, f.Path), f.Error()})
		}
	}
	return faults
}

// unwrapTrace takes the message out of a trace record of hookwire run; any
// other line is a message itself. ptr is where the message is in the line.
func unwrapTrace(line []byte) (hook string, msg []byte, ptr string, err error) {
	var rec struct {
		Hook    *string         `json:"hook"`
		Dir     string          `json:"dir"`
		Message json.RawMessage `json:"message"`
		Text    *string         `json:"text"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Hook == nil {
		return "", line, "", nil
	}
	if rec.Text != nil && rec.Dir == "send" {
		return "", nil, "", fmt.Errorf("the host sent hook %s a line that is not JSON: %q", *rec.Hook, wirefmt.Clip(*rec.Text, 120))
	}
	if rec.Text != nil {
		return "", nil, "", fmt.Errorf("hook %s wrote a line that is not JSON: %q", *rec.Hook, wirefmt.Clip(*rec.Text, 120))
	}
	return *rec.Hook, rec.Message, "/message", nil
}
