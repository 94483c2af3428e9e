package wiretap

import (
	"bytes"
	"os"
	"testing"
)

func TestLiveMarksEachDirectionAndColoursItOnlyWhenAsked(t *testing.T) {
	var plain, coloured bytes.Buffer
	for _, c := range []struct {
		w      *bytes.Buffer
		colour bool
	}{{&plain, false}, {&coloured, true}} {
		live := Live(c.w, c.colour)
		live("gate", true, []byte(`{"id":1}`))
		live("gate", false, []byte(`{"id":1,"result":{}}`))
	}
	if want := "[gate] > {\"id\":1}\n[gate] < {\"id\":1,\"result\":{}}\n"; plain.String() != want {
		t.Errorf("plain:\n%q\nwant\n%q", plain.String(), want)
	}
	if want := "\x1b[36m[gate] > \x1b[0m{\"id\":1}\n\x1b[32m[gate] < \x1b[0m{\"id\":1,\"result\":{}}\n"; coloured.String() != want {
		t.Errorf("coloured:\n%q\nwant\n%q", coloured.String(), want)
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&plain) {
		t.Error("a file and a buffer are no terminals")
	}
}
