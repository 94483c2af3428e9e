package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
)

func TestIDScannerFindsTheTopLevelID(t *testing.T) {
	for _, tc := range []struct {
		line string
		id   uint64
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":42,"result":{}}`, 42, true},
		{`{ "result" : {"id": 7, "x": [1, {"id": 8}]} , "id" : 9 }`, 9, true},
		{`{"result":"a \"id\": 5 inside a string","id":3}`, 3, true},
		{`{"id":"5","result":{}}`, 0, false},
		{`{"id":null}`, 0, false},
		{`{"result":{"id":1}}`, 0, false},
		{`{"id":99999999999999999999999}`, 0, false},
		{`{"jsonrpc":"2.0","id":12`, 12, true}, // cut short: the digits so far count
	} {
		// Fed one byte at a time, as a long line arrives in pieces.
		var s idScanner
		for i := range len(tc.line) {
			s.feed([]byte{tc.line[i]})
		}
		if id, ok := s.id(); ok != tc.ok || (ok && id != tc.id) {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.line, id, ok, tc.id, tc.ok)
		}
	}
}

func TestReadLine(t *testing.T) {
	long := `{"id":4,"result":{"for_llm":"` + strings.Repeat("x", 300) + `"}}`
	input := "short\r\n" + long + "\n\nlast"
	br := bufio.NewReaderSize(strings.NewReader(input), 16)
	var got []string
	for {
		line, err := readLine(br, 100)
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			if tooLong.ID == nil || *tooLong.ID != 4 || tooLong.Size != len(long) {
				t.Errorf("too long: %+v, want id 4 and size %d", tooLong, len(long))
			}
			got = append(got, "<too long>")
			continue
		case err == io.EOF:
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, string(line))
			continue
		}
		break
	}
	if want := []string{"short", "<too long>", "", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// A line over the limit costs no more than the limit: it is kept in the
// fragments read, never in a buffer that grows by copying, and dropped.
func TestALineOverTheLimitAllocatesAboutTheLimitOnly(t *testing.T) {
	const limit = 4 << 20
	line := append(bytes.Repeat([]byte("x"), 4*limit), '\n')
	br := bufio.NewReaderSize(bytes.NewReader(line), 64<<10)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := readLine(br, limit)
	goruntime.ReadMemStats(&after)
	var long *LineTooLongError
	if !errors.As(err, &long) {
		t.Fatalf("got %v, want a LineTooLongError", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > limit*3/2 {
		t.Errorf("reading a line of %d bytes over a limit of %d allocated %d bytes: want at most 1.5x the limit", len(line), limit, got)
	}
}
