package wiretap

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWriterKeepsTheLineByteForByteAndReadsBack(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	line := []byte(`{"jsonrpc": "2.0", "id": 2, "result": {"action": "continue"}}`)
	text := "not JSON \x01 \"quoted\""
	at := time.Date(2026, 11, 23, 20, 1, 2, 3000, time.UTC)
	w.Write(Record{Hook: "h", Dir: Recv, Time: at, Latency: 407 * time.Microsecond, Message: line})
	w.Write(Record{Hook: "h", Dir: Recv, Text: &text})
	want := `{"hook":"h","dir":"recv","time":"2026-11-23T20:01:02.000003Z","latency_ns":407000,"message":{"jsonrpc": "2.0", "id": 2, "result": {"action": "continue"}}}` + "\n"
	if got, _, _ := strings.Cut(b.String(), "\n"); got+"\n" != want {
		t.Errorf("record\n%s\nwant\n%s", got, want)
	}
	recs, err := Read(&b)
	if err != nil || len(recs) != 2 {
		t.Fatalf("read back: %v, %d records", err, len(recs))
	}
	if !bytes.Equal(recs[0].Message, line) || !recs[0].Time.Equal(at) || recs[0].Latency != 407*time.Microsecond {
		t.Errorf("first record read back as %+v", recs[0])
	}
	if recs[1].Text == nil || *recs[1].Text != text {
		t.Errorf("second record read back as %+v", recs[1])
	}
}

func TestAMalformedRecordingIsAnErrorNamingItsLineAndFault(t *testing.T) {
	ok := `{"hook":"h","dir":"send","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{}}}` + "\n"
	for _, c := range []struct{ data, want string }{
		{ok + "{not json\n", "line 2: not a JSON record"},
		{ok + "\n" + `{"dir":"up","message":{}}`, `line 3: "dir" is "up": want "send" or "recv"`},
		{`{"dir":"send"}`, `line 1: neither "message" nor "text"`},
		{`{"dir":"send","message":{},"text":"x"}`, `line 1: both "message" and "text"`},
		{`{"dir":"send","message":[1]}`, `line 1: "message" is not a JSON-RPC message (a JSON object): [1]`},
		{`{"dir":"send","message":{"method":7}}`, `line 1: "message" is not a JSON-RPC message`},
		{`{"dir":"recv","latency_ns":-5,"message":{}}`, `line 1: "latency_ns" is negative (-5)`},
		{`{"dir":"recv","time":"yesterday","message":{}}`, `line 1: `},
		{`{"dir":"recv","latency_ns":"fast","message":{}}`, `line 1: member "latency_ns": string where time.Duration belongs`},
		{`[]`, `line 1: member "": array where wiretap.Record belongs`},
	} {
		_, err := Read(strings.NewReader(c.data))
		var re *RecordError
		if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting with %q", c.data, err, c.want)
		}
	}
}

// Every record the reader accepts is written back by a Writer as a record
// it reads the same; nothing makes it panic.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"hook":"h","dir":"send","time":"2026-11-23T20:01:02Z","message":{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"h","version":1}}}` + "\n" +
		`{"hook":"h","dir":"recv","latency_ns":5,"message":{"jsonrpc":"2.0","id":1,"result":{"ok":true}}}`))
	f.Add([]byte(`{"hook":"h","dir":"recv","text":"garbage"}`))
	f.Add([]byte("{\"dir\":\"send\",\"message\":{\"id\":null}}\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The lines as a conversation, every other one the host's: the
		// reply picked out of it is one of the hook's lines.
		reply, lines := NewReply("hook.hello"), bytes.Split(data, []byte("\n"))
		for i, line := range lines {
			reply.See(i%2 == 0, line)
		}
		if l := reply.Line(); l != nil && !slices.ContainsFunc(lines, func(x []byte) bool { return bytes.Equal(x, l) }) || reply.Replies() > len(lines) {
			t.Fatalf("the reply %q, of %d replies, is not among the %d lines", reply.Line(), reply.Replies(), len(lines))
		}
		recs, err := Read(bytes.NewReader(data))
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || re.Line < 1 {
				t.Fatalf("error %v is not a RecordError with a line", err)
			}
			return
		}
		var b bytes.Buffer
		w := NewWriter(&b)
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		back, err := Read(&b)
		if err != nil || len(back) != len(recs) {
			t.Fatalf("written records do not read back: %v\n%s", err, b.String())
		}
		for i := range recs {
			a, z := recs[i], back[i]
			if a.Hook != z.Hook || a.Dir != z.Dir || !a.Time.Equal(z.Time) || a.Latency != z.Latency ||
				!bytes.Equal(compact(a.Message), compact(z.Message)) && a.Text == nil {
				t.Fatalf("record %d read back as %+v, want %+v", i, z, a)
			}
			replay := recs[i].envelope() // what replay takes of it must not panic
			_ = replay.idKey()
		}
	})
}

// compact is a message without the whitespace between its tokens.
func compact(m []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, m) != nil {
		return bytes.TrimSpace(m)
	}
	return b.Bytes()
}
