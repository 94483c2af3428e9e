package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Example is what the reference shows of one method: a message as it goes
// on the wire, and a reply to it for each action, taken from the shared
// test vectors.
type Example struct {
	Method  *Method
	Message string // a request or notification, one line of JSON
	Replies []Reply
}

// Reply is one reply to an Example's request.
type Reply struct {
	// Label names the reply: the action of a union result, or the boolean
	// members of another result ("approved: false").
	Label   string
	Message string
}

// vector is a valid test vector in one of the forms that show a method.
type vector struct {
	name    string
	Method  string          `json:"method"`
	Message json.RawMessage `json:"message"`
	Result  json.RawMessage `json:"result"`
}

// loadExamples reads the valid vectors in dir and picks, for each method of
// m, a message and a reply per action. A vector from a real host's capture
// ("capture.*") is the message where there is one; otherwise, and for the
// replies, the shortest vector wins, as the easiest to read. A folder that
// does not exist gives no examples.
func loadExamples(dir string, m *Model) ([]Example, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	sort.Strings(files)
	var messages, results []vector
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		v := vector{name: filepath.Base(f)}
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		switch {
		case v.Message != nil:
			if err := json.Unmarshal(v.Message, &env); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if env.Method != "" {
				v.Method = env.Method
				messages = append(messages, v)
			} else if env.Result != nil && v.Method != "" {
				v.Result = env.Result
				results = append(results, v)
			}
		case v.Result != nil && v.Method != "":
			results = append(results, v)
		}
	}
	var out []Example
	for _, meth := range m.Methods {
		var msg *vector
		for i, v := range messages {
			if v.Method != meth.Name || hasID(v.Message) == meth.Notification {
				continue
			}
			if msg == nil || isCapture(v) && !isCapture(*msg) || isCapture(v) == isCapture(*msg) && len(v.Message) < len(msg.Message) {
				msg = &messages[i]
			}
		}
		if msg == nil {
			continue
		}
		ex := Example{Method: meth, Message: compact(msg.Message)}
		if !meth.Notification {
			var id struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(msg.Message, &id)
			best := map[string]vector{}
			var labels []string
			for _, v := range results {
				if v.Method != meth.Name {
					continue
				}
				label, ok := replyLabel(meth, v.Result)
				if !ok {
					continue
				}
				if old, seen := best[label]; !seen || len(compact(v.Result)) < len(compact(old.Result)) {
					if !seen {
						labels = append(labels, label)
					}
					best[label] = v
				}
			}
			// Actions in the method table's order; other labels shortest first.
			order := func(l string) int {
				if i := slices.Index(meth.Actions, l); i >= 0 {
					return i
				}
				return len(meth.Actions)
			}
			sort.SliceStable(labels, func(i, j int) bool {
				if order(labels[i]) != order(labels[j]) {
					return order(labels[i]) < order(labels[j])
				}
				if len(labels[i]) != len(labels[j]) {
					return len(labels[i]) < len(labels[j])
				}
				return labels[i] < labels[j]
			})
			for _, l := range labels {
				reply := `{"jsonrpc":"2.0","id":` + compact(id.ID) + `,"result":` + compact(best[l].Result) + `}`
				ex.Replies = append(ex.Replies, Reply{Label: l, Message: reply})
			}
		}
		out = append(out, ex)
	}
	return out, nil
}

func isCapture(v vector) bool { return strings.HasPrefix(v.name, "capture.") }

func hasID(message json.RawMessage) bool {
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(message, &env)
	return env.ID != nil && string(env.ID) != "0" && string(env.ID) != "null"
}

// replyLabel names a result: the value of a union's tag when it is one of
// the method's actions, else its boolean members. A union result without
// its tag, or with a tag the method does not list, is left out: the
// reference shows each action once, as written.
func replyLabel(meth *Method, result json.RawMessage) (string, bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(result, &members) != nil {
		return "", false
	}
	if meth.Result != nil && meth.Result.Kind == Union {
		var tag string
		if json.Unmarshal(members[meth.Result.Tag], &tag) != nil || !slices.Contains(meth.Actions, tag) {
			return "", false
		}
		return tag, true
	}
	var bools []string
	for k, v := range members {
		if s := string(v); s == "true" || s == "false" {
			bools = append(bools, k+": "+s)
		}
	}
	sort.Strings(bools)
	return strings.Join(bools, ", "), true
}

// compact is JSON on one line, with no spaces.
func compact(data json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return string(data)
	}
	return b.String()
}
