package wiretap

import "testing"

func TestReplyIsTheLineWithTheIDOfTheRequestOfItsMethod(t *testing.T) {
	r := NewReply("hook.before_tool")
	for _, l := range []struct {
		out  bool
		line string
	}{
		{true, `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{}}`},
		{false, `{"jsonrpc":"2.0","id":1,"result":{"protocol_version":1}}`},
		{true, `{"jsonrpc":"2.0","method":"hook.runtime_event","params":{}}`},
		{false, `not a message`},
		{true, `{"jsonrpc":"2.0","id":"b","method":"hook.before_tool","params":{"tool":"x"}}`},
		{false, `{"jsonrpc":"2.0","id":"a","result":{"action":"continue"}}`},
	} {
		r.See(l.out, []byte(l.line))
	}
	if r.Line() != nil {
		t.Fatalf("a reply before the hook answered the request: %s", r.Line())
	}
	want := `{"jsonrpc":"2.0","id":"b","result":{"action":"respond","result":{"for_llm":"ok"}}}`
	r.See(false, []byte(want))
	if got := string(r.Line()); got != want {
		t.Errorf("the reply is %s, want %s", got, want)
	}
	if r.Replies() != 3 {
		t.Errorf("%d replies counted, want 3 (hello's, the stray one, the request's)", r.Replies())
	}
}
