package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzVerifyReadsAnyLog: a log is a file anyone with the user's rights
// may have edited: Verify reads whatever it holds without failing, and
// says the chain holds only of lines that chain.
func FuzzVerifyReadsAnyLog(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "good", "audit.jsonl")
	l, err := Open(good, 0, nil)
	if err != nil {
		f.Fatal(err)
	}
	for range 3 {
		l.Append(Record{Host: "fuzz", Hook: "guard", Method: "hook.before_tool", Action: "deny_tool"})
	}
	if err := l.Close(); err != nil {
		f.Fatal(err)
	}
	log, _ := os.ReadFile(good)
	head, _ := os.ReadFile(headPath(good))
	f.Add(log, head)
	f.Add([]byte("{\"seq\":1}\n{}\n\n"), []byte("00000000000000000001 x\n"))
	f.Add([]byte("not json\n"), []byte{})
	f.Fuzz(func(t *testing.T, log, head []byte) {
		v := &verifier{report: &Report{}}
		if err := v.read("audit.jsonl", bytes.NewReader(log)); err != nil {
			t.Fatalf("read: %v", err)
		}
		v.missingAtEnd()
		v.againstHead("audit.jsonl.head", bytes.NewReader(head))
		if v.report.OK() && v.report.Records == 0 && len(bytes.TrimSpace(log)) > 0 {
			t.Fatalf("a log of %d bytes with no record said to hold", len(log))
		}
	})
}
