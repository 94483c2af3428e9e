package inspect

import (
	"bytes"
	"testing"
)

// FuzzProducerStream: whatever a producer writes on the socket, the
// inspector takes it or refuses it, and never panics.
func FuzzProducerStream(f *testing.F) {
	f.Add([]byte(`{"kind":"run","host":"reference","start":"2026-11-26T10:00:00Z","pid":1}
{"type":"stderr","hook":"h","text":"boom"}
{"type":"call","hook":"h","method":"hook.before_llm","params":{"tools":[]},"result":{"action":"modify","request":{"tools":[1]}}}
{"type":"wire","hook":"h","dir":"send","message":{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"x"}}}
{"type":"wire","hook":"h","dir":"recv","message":{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}}
{"type":"event","name":"tool","data":{"type":"tool","kind":3}}
{"type":"end"}
`))
	f.Add([]byte("{\"kind\":\"tap\"}\n{\"type\":\"wire\",\"dir\":\"recv\",\"text\":\"garbage\"}\n"))
	// A turn, a call's key argument and reason, an approver's answer, junk.
	f.Add([]byte(`{"kind":"run"}
{"type":"event","name":"user","data":{"type":"user","content":"hi"}}
{"type":"event","name":"event","data":{"type":"event","kind":"agent.llm.request"}}
{"type":"wire","hook":"h","dir":"send","message":{"id":1,"method":"hook.before_tool","params":{"tool":"shell","arguments":{"command":"ls","n":1},"canonical":{"kind":"shell","path":7,"command":"ls"}}}}
{"type":"wire","hook":"h","dir":"recv","message":{"id":1,"result":{"action":"deny_tool","reason":"no"}}}
{"type":"wire","hook":"h","dir":"send","message":{"id":2,"method":"hook.approve_tool","params":{"tool":"x","arguments":[1]}}}
{"type":"wire","hook":"h","dir":"recv","message":{"id":2,"result":{"approved":false,"abstain":true,"reason":null}}}
{"type":"call","hook":"g","method":"hook.before_tool","params":{"tool":"y","canonical":{"url":"u"}},"result":{"action":"abort_turn"}}
{"type":"wire","hook":"h","dir":"recv","text":"print"}
{"type":"event","name":"turn_end","data":{"type":"turn_end","status":"aborted","by":"h","reason":"r"}}
`))
	f.Fuzz(func(t *testing.T, stream []byte) {
		var st store
		_ = st.ingest(bytes.NewReader(stream))
		for _, s := range st.list() {
			rows, _ := st.rows(s.ID, 0, 0)
			for _, r := range rows.Rows {
				st.detail(s.ID, r.Seq)
			}
			st.search(s.ID, "ls")
		}
	})
}
