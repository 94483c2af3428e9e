package install

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/internal/jsonc"
)

// MaxFileSize bounds a configuration file read: a settings file is a few
// kilobytes.
const MaxFileSize = 4 << 20

// MaxDepth bounds how deeply a configuration file's objects and arrays
// nest (see jsonc.MaxDepth).
const MaxDepth = jsonc.MaxDepth

// document is a configuration file as its bytes, edited in place: each
// change packs the tree back and parses it again, so that the offsets it
// takes indentation from are always those of the current bytes. What is
// not changed keeps its bytes, comments included.
type document struct {
	data []byte
	root hujson.Value
	// tables are the entries of the hooks array of an agent whose hooks
	// file is TOML (Install.TOML), read by doctor; its root is then empty.
	tables []map[string]any
}

// decode reads a configuration file: JSON, or JSON with comments and
// trailing commas where comments is true. Empty bytes are an empty object.
// The root must be an object.
func decode(data []byte, comments bool) (*document, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%d bytes, more than a settings file has (at most %d)", len(data), MaxFileSize)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	// The agents read their files with JSON.parse or serde, which keep the
	// last of two members of one name, while this package reads the first:
	// install would write into a section the agent never reads, and doctor
	// would check it.
	root, err := jsonc.Parse(data, MaxFileSize, "the agent reads the last, hookwire the first; keep one of them")
	if err != nil {
		return nil, err
	}
	if !comments && !root.IsStandard() {
		return nil, fmt.Errorf("comments or trailing commas, which this agent does not read: it reads plain JSON")
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("the file is not a JSON object")
	}
	return &document{data: data, root: root}, nil
}

// lineOf is the line (from 1) that the byte at offset is on.
var lineOf = jsonc.Line

// bytes are the document as it is now.
func (d *document) bytes() []byte { return d.data }

// reparse takes the tree's new bytes as the document's.
func (d *document) reparse() {
	d.data = d.root.Pack()
	root, err := hujson.Parse(d.data)
	if err != nil { // packing a parsed tree gives bytes that parse
		panic(fmt.Sprintf("install: the edited file does not parse: %v", err))
	}
	d.root = root
}

// find is the value at path (object members, then array indexes as
// "0", "1"...), or nil.
func (d *document) find(path ...string) *hujson.Value {
	v := &d.root
	for _, name := range path {
		v = child(v, name)
		if v == nil {
			return nil
		}
	}
	return v
}

// The tree's types, by shorter names.
type (
	hujsonValue  = hujson.Value
	hujsonObject = hujson.Object
)

// child is the member name of an object, or the element at index name of
// an array, or nil.
func child(v *hujson.Value, name string) *hujson.Value {
	if arr, ok := v.Value.(*hujson.Array); ok {
		i, err := strconv.Atoi(name)
		if err != nil || i < 0 || i >= len(arr.Elements) {
			return nil
		}
		return &arr.Elements[i]
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	for i := range obj.Members {
		if text(&obj.Members[i].Name) == name {
			return &obj.Members[i].Value
		}
	}
	return nil
}

// text is a string literal's value, or "".
var text = jsonc.Text

// number is a number literal's value.
func number(v *hujson.Value) (float64, bool) {
	if v == nil {
		return 0, false
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		return 0, false
	}
	return lit.Float(), true
}

// boolean is a true or false literal's value.
func boolean(v *hujson.Value) (value, ok bool) {
	if v == nil {
		return false, false
	}
	lit, isLit := v.Value.(hujson.Literal)
	if !isLit || (lit.Kind() != 't' && lit.Kind() != 'f') {
		return false, false
	}
	return lit.Bool(), true
}

// elements are an array's elements, or none.
func elements(v *hujson.Value) []hujson.Value {
	if v == nil {
		return nil
	}
	if arr, ok := v.Value.(*hujson.Array); ok {
		return arr.Elements
	}
	return nil
}

// hooksObject are the member names of an object.
func hooksObject(v *hujson.Value) ([]string, bool) {
	if v == nil {
		return nil, false
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, false
	}
	var names []string
	for i := range obj.Members {
		names = append(names, text(&obj.Members[i].Name))
	}
	return names, true
}

// lineIndent is the white space that starts the line offset is on.
func (d *document) lineIndent(offset int) string {
	start := bytes.LastIndexByte(d.data[:offset], '\n') + 1
	end := start
	for end < len(d.data) && (d.data[end] == ' ' || d.data[end] == '\t') {
		end++
	}
	return string(d.data[start:end])
}

// unit is one level of the file's indentation: that of the root's first
// member, or two spaces.
func (d *document) unit() string {
	if obj := d.root.Value.(*hujson.Object); len(obj.Members) > 0 {
		if u := d.lineIndent(obj.Members[0].Name.StartOffset); u != "" && strings.Contains(string(obj.Members[0].Name.BeforeExtra), "\n") {
			return u
		}
	}
	return "  "
}

// add appends value to the object at path as its member name, or, with
// no name, to the list at path; the caller has made sure that path exists. The new value is indented as its
// siblings are, or one level in from its container.
func (d *document) add(path []string, name string, value any) error {
	container := d.find(path...)
	_, isObject := container.Value.(*hujson.Object)
	_, isList := container.Value.(*hujson.Array)
	if (name != "" && !isObject) || (name == "" && !isList) {
		want := map[bool]string{true: "an object", false: "a list"}[name != ""]
		return fmt.Errorf("%s is not %s, as the agent reads it: fix it by hand first", cmp.Or(strings.Join(path, "."), "the file"), want)
	}
	own := d.lineIndent(container.StartOffset)
	indent := own + d.unit()
	var last *hujson.Value
	switch c := container.Value.(type) {
	case *hujson.Object:
		if n := len(c.Members); n > 0 {
			last = &c.Members[n-1].Name
		}
	case *hujson.Array:
		if n := len(c.Elements); n > 0 {
			last = &c.Elements[n-1]
		}
	}
	closing := closingExtra(container)
	if last != nil && strings.Contains(string(last.BeforeExtra), "\n") {
		indent = d.lineIndent(last.StartOffset)
	}
	if last == nil && len(bytes.TrimSpace(*closing)) == 0 {
		*closing = hujson.Extra("\n" + own)
	}
	text, err := json.MarshalIndent(value, indent, d.unit())
	if err != nil {
		return err
	}
	v, err := hujson.Parse(text)
	if err != nil {
		return err
	}
	v.BeforeExtra = hujson.Extra("\n" + indent)
	if last != nil && trailingComma(container) {
		v.AfterExtra = hujson.Extra{} // the file's style: a comma after the last
	}
	switch c := container.Value.(type) {
	case *hujson.Object:
		key, _ := json.Marshal(name)
		v.BeforeExtra = hujson.Extra(" ")
		c.Members = append(c.Members, hujson.ObjectMember{
			Name:  hujson.Value{BeforeExtra: hujson.Extra("\n" + indent), Value: hujson.Literal(key)},
			Value: v,
		})
	case *hujson.Array:
		c.Elements = append(c.Elements, v)
	}
	d.reparse()
	return nil
}

// remove takes the member name, or the element at index, out of the
// object or array at path. Its siblings keep their bytes.
func (d *document) remove(path []string, name string, index int) {
	container := d.find(path...)
	if container == nil {
		return
	}
	switch c := container.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			if text(&c.Members[i].Name) == name {
				comma := trailingComma(container)
				c.Members = append(c.Members[:i], c.Members[i+1:]...)
				if n := len(c.Members); comma && n > 0 && c.Members[n-1].Value.AfterExtra == nil {
					c.Members[n-1].Value.AfterExtra = hujson.Extra{}
				}
				break
			}
		}
	case *hujson.Array:
		if index >= 0 && index < len(c.Elements) {
			comma := trailingComma(container)
			c.Elements = append(c.Elements[:index], c.Elements[index+1:]...)
			if n := len(c.Elements); comma && n > 0 && c.Elements[n-1].AfterExtra == nil {
				c.Elements[n-1].AfterExtra = hujson.Extra{}
			}
		}
	}
	// An emptied container closes where it opens, as "{}" or "[]": add put
	// its closing bracket on a line of its own only to follow a member.
	if closing := closingExtra(container); closing != nil && emptyContainer(container) && len(bytes.TrimSpace(*closing)) == 0 {
		*closing = nil
	}
	d.reparse()
}

// closingExtra is what stands between an object's or array's last value
// and its closing bracket.
func closingExtra(v *hujson.Value) *hujson.Extra {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return &c.AfterExtra
	case *hujson.Array:
		return &c.AfterExtra
	}
	return nil
}

// trailingComma says whether the object or array has a comma after its
// last value.
func trailingComma(v *hujson.Value) bool {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return len(c.Members) > 0 && c.Members[len(c.Members)-1].Value.AfterExtra != nil
	case *hujson.Array:
		return len(c.Elements) > 0 && c.Elements[len(c.Elements)-1].AfterExtra != nil
	}
	return false
}

// empty says whether the value at path is an empty object or array,
// comments aside.
func (d *document) empty(path ...string) bool {
	return emptyContainer(d.find(path...))
}

// emptyContainer says whether v is an empty object or array.
func emptyContainer(v *hujson.Value) bool {
	if v == nil {
		return false
	}
	switch c := v.Value.(type) {
	case *hujson.Object:
		return len(c.Members) == 0
	case *hujson.Array:
		return len(c.Elements) == 0
	}
	return false
}

// object is a JSON object whose members keep the order they are given in.
type object []member

type member struct {
	name  string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.name)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
