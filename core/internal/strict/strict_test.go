package strict

import (
	"strings"
	"testing"
)

type item struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

type doc struct {
	Title string          `json:"title"`
	Count int             `json:"count"`
	Items []item          `json:"items"`
	ByKey map[string]item `json:"by_key"`
	Tags  []string        `json:"tags"`
	Opt   *bool           `json:"opt"`
}

func TestDecode(t *testing.T) {
	var d doc
	err := Decode([]byte(`{"title":"t","count":2,"items":[{"name":"a","args":{"x":1}}],"by_key":{"k":{"name":"b"}},"tags":["x"],"opt":false,"ignored":null}`), &d)
	if err == nil || err.Error() != "ignored: unknown key (known: by_key, count, items, opt, tags, title)" {
		t.Fatalf("err = %v", err)
	}
	d = doc{}
	if err := Decode([]byte(`{"title":"t","count":2,"items":[{"name":"a","args":{"x":1}}],"by_key":{"k":{"name":"b"}},"tags":["x"],"opt":false}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.Title != "t" || d.Count != 2 || d.Items[0].Args["x"] != 1.0 || d.ByKey["k"].Name != "b" || d.Tags[0] != "x" || d.Opt == nil || *d.Opt {
		t.Errorf("decoded %+v", d)
	}
}

func TestDecodeNamesThePath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"title":`, "not JSON"},
		{`[1]`, "want a JSON object"},
		{`{"count":"2"}`, "count: want an integer, got string"},
		{`{"items":{}}`, "items: want a list"},
		{`{"items":[{"name":"a"},{"nme":"b"}]}`, "items[1].nme: unknown key (known: args, name)"},
		{`{"items":[{"args":[]}]}`, "items[0].args: want an object, got array"},
		{`{"by_key":{"k":{"name":3}}}`, "by_key.k.name: want a string, got number"},
		{`{"tags":"x"}`, "tags: want a list of strings, got string"},
	} {
		var d doc
		if err := Decode([]byte(tc.in), &d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.in, err, tc.want)
		}
	}
}
