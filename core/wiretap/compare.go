package wiretap

import (
	"bytes"
	"encoding/json"
)

// Compare returns the members that differ between two JSON values, as a
// replay compares replies: Recorded holds a's side, Replayed b's. It is
// what a modify changed when a is what the hook was sent and b what it
// sent back. A value that is not JSON differs as a whole.
func Compare(a, b json.RawMessage) []Diff {
	var x, y any
	if decode(a, &x) != nil || decode(b, &y) != nil {
		return []Diff{{Path: "", Recorded: a, Replayed: b}}
	}
	var out []Diff
	diff("", x, y, newIgnore(nil), &out)
	return out
}

func decode(b json.RawMessage, v *any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}
