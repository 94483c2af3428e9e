package strict

import (
	"errors"
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

func TestAKeyGivenTwiceIsRefusedByItsPath(t *testing.T) {
	var d doc
	err := Decode([]byte(`{"by_key":{"k":{"name":"a"},"k":{"name":"b"}}}`), &d)
	if err == nil || err.Error() != "by_key.k: the key is given twice" {
		t.Errorf("err = %v", err)
	}
	err = Decode([]byte(`{"items":[{"name":"a","name":"b"}]}`), &d)
	if err == nil || err.Error() != "items[0].name: the key is given twice" {
		t.Errorf("err = %v", err)
	}
}

func TestNullForAnObjectOfKnownKeysIsRefused(t *testing.T) {
	for in, want := range map[string]string{
		`null`:                  "null: want a JSON object",
		`{"items":[null]}`:      "items[0]: null: want an object",
		`{"by_key":null}`:       "by_key: null: want an object",
		`{"by_key":{"k":null}}`: "by_key.k: null: want an object",
	} {
		var d doc
		if err := Decode([]byte(in), &d); err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
	var d doc
	if err := Decode([]byte(`{"title":null,"tags":null,"opt":null}`), &d); err != nil {
		t.Errorf("null for a value means absent: %v", err)
	}
}

func TestASyntaxErrorGivesItsLineAndColumn(t *testing.T) {
	var d doc
	err := Decode([]byte("{\n  \"title\": \"t\",\n  \"count\": 2,,\n}"), &d)
	if err == nil || !strings.HasPrefix(err.Error(), "not JSON: line 3, column 14: invalid character ','") {
		t.Errorf("err = %v", err)
	}
}

func TestAWrongTypeInsideAMapOrListNamesTheMember(t *testing.T) {
	type env struct {
		Env     map[string]string `json:"env"`
		Command []string          `json:"command"`
	}
	for in, want := range map[string]string{
		`{"env":{"A":1}}`:           "env.A: want a string, got number",
		`{"command":["python3",2]}`: "command[1]: want a string, got number",
	} {
		var e env
		if err := Decode([]byte(in), &e); err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
}

func TestDecodeAllGivesEveryKeyAtFaultOnce(t *testing.T) {
	var d doc
	errs := DecodeAll([]byte(`{"count":"2","items":[{"nme":"a"},{"name":3}],"titel":"t","tags":["x"]}`), &d)
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	want := []string{
		"count: want an integer, got string",
		"items[0].nme: unknown key (known: args, name)",
		"items[1].name: want a string, got number",
		"titel: unknown key (known: by_key, count, items, opt, tags, title)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(d.Tags) != 1 || d.Tags[0] != "x" {
		t.Errorf("the keys not at fault are decoded all the same: %+v", d)
	}
	var e *Error
	if !errors.As(errs[1], &e) || e.Unknown != "nme" || strings.Join(e.Known, ",") != "args,name" {
		t.Errorf("the unknown key and its object's keys: %+v", e)
	}
}
