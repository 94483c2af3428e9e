// A hook loop written by hand, the floor of a Go hook: read a line, parse
// it, answer, flush. Flags:
//
//	-modify   answer hook.before_llm with the request and one tool more
//	-noparse  parse nothing: find the id by scanning and, with -modify, send
//	          the params back as the request; the floor of the host and the
//	          pipe at any payload size
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

var benchTool = map[string]any{
	"type": "function",
	"function": map[string]any{
		"name":        "bench_tool",
		"description": "A tool the benchmark's hook adds",
		"parameters":  map[string]any{"type": "object", "properties": map[string]any{}},
	},
}

func main() {
	modify := flag.Bool("modify", false, "add a tool in hook.before_llm")
	noparse := flag.Bool("noparse", false, "answer without parsing")
	flag.Parse()
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var reply []byte
			if *noparse {
				reply = splice(line, *modify)
			} else {
				reply = answer(line, *modify)
			}
			if reply != nil {
				out.Write(reply)
				if err := out.Flush(); err != nil {
					os.Exit(1)
				}
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func answer(line []byte, modify bool) []byte {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params map[string]any  `json:"params"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if msg.ID == nil {
		return nil // a notification
	}
	var result any = map[string]any{"action": "continue"}
	switch {
	case msg.Method == "hook.hello":
		result = map[string]any{"ok": true, "name": "raw"}
	case modify && msg.Method == "hook.before_llm":
		tools, _ := msg.Params["tools"].([]any)
		msg.Params["tools"] = append(tools, benchTool)
		result = map[string]any{"action": "modify", "request": msg.Params}
	}
	reply, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return append(reply, '\n')
}

// splice answers without parsing: hosts write the id before the method and
// the params last, so both are found by position.
func splice(line []byte, modify bool) []byte {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 || i > bytes.Index(line, []byte(`"method":`)) {
		return nil // a notification: the first id is inside its params
	}
	id := line[i+5:]
	id = id[:bytes.IndexByte(id, ',')]
	reply := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	head := line[:min(len(line), i+64)]
	switch {
	case bytes.Contains(head, []byte(`"hook.hello"`)):
		reply = append(reply, `,"result":{"ok":true,"name":"raw"}}`...)
	case modify && bytes.Contains(head, []byte(`"hook.before_llm"`)):
		p := bytes.Index(line, []byte(`"params":`))
		params := bytes.TrimSuffix(bytes.TrimSuffix(line[p+9:], []byte("\n")), []byte("}"))
		reply = append(reply, `,"result":{"action":"modify","request":`...)
		reply = append(reply, params...)
		reply = append(reply, `}}`...)
	default:
		reply = append(reply, `,"result":{"action":"continue"}}`...)
	}
	return append(reply, '\n')
}
