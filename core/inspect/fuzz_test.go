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
	f.Fuzz(func(t *testing.T, stream []byte) {
		var st store
		_ = st.ingest(bytes.NewReader(stream))
		for _, s := range st.list() {
			rows, _ := st.rows(s.ID, 0, 0)
			for _, r := range rows.Rows {
				st.detail(s.ID, r.Seq)
			}
		}
	})
}
