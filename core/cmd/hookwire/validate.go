package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/schema"
)

var validateCommand = command{
	name: "validate",
	args: "[--method METHOD] [--host picoclaw] FILE...",
	summary: `Checks each FILE against the protocol's schema; "-" reads stdin. A FILE may
hold one JSON-RPC message, a test vector of schema/testdata (message, params,
result or def form), or JSON Lines: raw messages as on the wire, or the
records of "hookwire run --trace". A response is checked against the method
of the request with its id earlier in the file (per hook in a trace), or
against --method. Prints one line per fault, naming the file, the line and
the JSON Pointer of the fault; exits 1 if there is any.

With --host picoclaw, a FILE that is a configuration (a PicoClaw config.json,
or a hooks configuration: an object with a "hooks" key) is checked as
PicoClaw loads it instead: one line per key of its hooks section PicoClaw
would refuse, and one note naming the other sections, which are PicoClaw's
business and not checked.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		method := fs.String("method", "", "`method` a response answers, when the file does not show its request")
		hostName := fs.String("host", "reference", "with picoclaw, check configuration files as PicoClaw loads them")
		return func(files []string, e env) int {
			h, err := host.Parse(*hostName)
			if err != nil {
				return e.fail(exitUsage, "validate", err)
			}
			if len(files) == 0 {
				return e.fail(exitUsage, "validate", errors.New("need at least one file (see hookwire validate --help)"))
			}
			v, err := schema.NewValidator()
			if err != nil {
				return e.fail(exitFail, "validate", err)
			}
			code := exitOK
			for _, f := range files {
				if c := validateFile(v, f, *method, h, e); c != exitOK {
					code = c
				}
			}
			return code
		}
	},
}

func validateFile(v *schema.Validator, path, method string, h *host.Host, e env) int {
	var data []byte
	var err error
	name := path
	if path == "-" {
		data, err = io.ReadAll(e.stdin)
		name = "stdin"
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return e.fail(exitFail, "validate", err)
	}
	var whole map[string]json.RawMessage
	if json.Unmarshal(data, &whole) == nil && whole != nil {
		if hooks, ok := whole["hooks"]; ok && h.CheckHooks != nil {
			code := exitOK
			for _, p := range h.CheckHooks(hooks) {
				code = report(e, name, 0, fmt.Errorf("%s refuses %w", h.Title, p))
			}
			if note := config.NotCheckedNote(config.NotChecked(whole)); note != "" {
				fmt.Fprintf(e.stdout, "%s: note: %s\n", name, note)
			}
			return code
		}
		if vec, ok := asVector(whole); ok {
			return report(e, name, 0, vec.check(v))
		}
		return validateLines(v, name, []byte(compact(data)), method, e)
	}
	return validateLines(v, name, data, method, e)
}

// report prints a fault, if any, as "file[:line]: fault".
func report(e env, name string, line int, err error) int {
	if err == nil {
		return exitOK
	}
	where := name
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	fmt.Fprintf(e.stdout, "%s: %v\n", where, err)
	return exitFail
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

func asVector(obj map[string]json.RawMessage) (vector, bool) {
	if _, ok := obj["description"]; !ok {
		return vector{}, false
	}
	var vec vector
	b, _ := json.Marshal(obj)
	if json.Unmarshal(b, &vec) != nil {
		return vector{}, false
	}
	return vec, vec.Message != nil || vec.Params != nil || vec.Result != nil || vec.Def != ""
}

func (vec vector) check(v *schema.Validator) error {
	switch {
	case vec.Message != nil:
		return v.Validate(vec.Message, vec.Method)
	case vec.Params != nil:
		return v.ValidateParams(vec.Method, vec.Params)
	case vec.Result != nil:
		return v.ValidateResult(vec.Method, vec.Result)
	}
	return v.ValidateDef(vec.Def, vec.Value)
}

// validateLines checks JSON Lines: messages, or trace records.
func validateLines(v *schema.Validator, name string, data []byte, method string, e env) int {
	code := exitOK
	requests := map[string]string{} // hook + id -> method
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 256<<20)
	n, count := 0, 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		count++
		hook, msg, err := unwrapTrace(line)
		if err != nil {
			code = max(code, report(e, name, n, err))
			continue
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		_ = json.Unmarshal(msg, &head)
		answers := method
		if head.Method != nil && len(head.ID) > 0 {
			requests[hook+" "+string(head.ID)] = *head.Method
		} else if head.Method == nil && answers == "" {
			answers = requests[hook+" "+string(head.ID)]
		}
		code = max(code, report(e, name, n, v.Validate(msg, answers)))
	}
	if err := sc.Err(); err != nil {
		return e.fail(exitFail, "validate", fmt.Errorf("%s: %w", name, err))
	}
	if count == 0 {
		return report(e, name, 0, errors.New("no message in the file"))
	}
	return code
}

// unwrapTrace takes the message out of a trace record of hookwire run; any
// other line is a message itself.
func unwrapTrace(line []byte) (hook string, msg []byte, err error) {
	var rec struct {
		Hook    *string         `json:"hook"`
		Dir     string          `json:"dir"`
		Message json.RawMessage `json:"message"`
		Text    *string         `json:"text"`
	}
	if json.Unmarshal(line, &rec) != nil || rec.Hook == nil {
		return "", line, nil
	}
	if rec.Text != nil && rec.Dir == "send" {
		return "", nil, fmt.Errorf("the host sent hook %s a line that is not JSON: %s", *rec.Hook, clip(*rec.Text))
	}
	if rec.Text != nil {
		return "", nil, fmt.Errorf("hook %s wrote a line that is not JSON: %s", *rec.Hook, clip(*rec.Text))
	}
	return *rec.Hook, rec.Message, nil
}

func compact(data []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return string(data)
	}
	return b.String()
}

func jsonValid(b []byte) bool { return json.Valid(b) }

func quote(b []byte) string {
	q, _ := json.Marshal(string(b))
	return string(q)
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
