package wire

import (
	"bufio"
	"errors"
	"io"
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
