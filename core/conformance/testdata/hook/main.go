// Command hook is a hook written by hand, with no SDK, that speaks the
// protocol correctly unless -fault breaks one thing about it. The four
// broken hooks of the conformance suite's own tests:
//
//	-fault stdout       prints a debug line on stdout for every request
//	-fault silent       reads every request and never answers one
//	-fault wrong-id     replies with the id of the latest request, not its own:
//	                    a race that only concurrent requests reveal
//	-fault exit-on-bad  exits when a line is not JSON
//
// and one fault for each of the other checks:
//
//	-fault no-reason    denies every tool call without the reason deny_tool requires
//	-fault error        answers hook.before_tool with a handler error
//	-fault needs-args   answers hook.before_tool with a handler error when
//	                    the call has no arguments
//	-fault echo         answers notifications too
//	-fault unknown-ok   answers unknown methods with a result
//	-fault linger       keeps running after its stdin closes
//
// The tests build it once and expect each fault to fail the check named
// for it, and no other.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"
)

var fault = flag.String("fault", "", "the one thing to get wrong (see the package comment)")

var out sync.Mutex

func reply(id json.RawMessage, member string, value any) {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, member: value})
	out.Lock()
	defer out.Unlock()
	os.Stdout.Write(append(line, '\n'))
}

type object = map[string]any

// answer is the reply to a request: "result" or "error", and its value.
func answer(method string, params map[string]json.RawMessage) (string, object) {
	switch method {
	case "hook.hello":
		return "result", object{"ok": true, "name": "fixture", "modes": []string{"observe", "llm", "tool", "approve"}}
	case "hook.before_tool":
		switch *fault {
		case "no-reason":
			return "result", object{"action": "deny_tool"}
		case "error":
			return "error", object{"code": -32000, "message": "handler failed"}
		case "needs-args":
			if params["arguments"] == nil {
				return "error", object{"code": -32000, "message": "handler failed: KeyError: 'arguments'"}
			}
		}
		return "result", object{"action": "continue"}
	case "hook.before_llm", "hook.after_llm", "hook.after_tool":
		return "result", object{"action": "continue"}
	case "hook.approve_tool":
		return "result", object{"approved": true}
	}
	if *fault == "unknown-ok" {
		return "result", object{}
	}
	return "error", object{"code": -32601, "message": "method not found: " + method}
}

func main() {
	flag.Parse()
	var latest struct {
		sync.Mutex
		id json.RawMessage
	}
	var wg sync.WaitGroup
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage            `json:"id"`
			Method string                     `json:"method"`
			Params map[string]json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			if *fault == "exit-on-bad" {
				fmt.Fprintln(os.Stderr, "fatal: bad line:", err)
				os.Exit(1)
			}
			reply(json.RawMessage("null"), "error", object{"code": -32700, "message": "parse error"})
			continue
		}
		if msg.ID == nil || string(msg.ID) == "0" {
			if *fault == "echo" {
				reply(json.RawMessage("null"), "error", object{"code": -32601, "message": "method not found: " + msg.Method})
			}
			continue // a notification
		}
		if *fault == "silent" {
			continue
		}
		if *fault == "stdout" {
			fmt.Println("handling", msg.Method)
		}
		latest.Lock()
		latest.id = msg.ID
		latest.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(20 * time.Millisecond) // the work
			id := msg.ID
			if *fault == "wrong-id" {
				latest.Lock()
				id = latest.id
				latest.Unlock()
			}
			member, value := answer(msg.Method, msg.Params)
			reply(id, member, value)
		}()
	}
	wg.Wait()
	if *fault == "linger" {
		time.Sleep(time.Hour)
	}
}
