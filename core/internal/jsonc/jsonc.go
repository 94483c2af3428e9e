// Package jsonc reads JSON with comments and trailing commas (hujson) as
// files the user or a cloned repository wrote: bounded in size and depth
// before the parser recurses, with a key given twice refused, and with
// the line and column of any value at hand for messages.
package jsonc

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// MaxDepth bounds how deeply objects and arrays nest. The parser recurses
// once per level, so a few megabytes of "[" would otherwise exhaust the
// stack (a fatal error, not a panic); a configuration nests a handful of
// levels.
const MaxDepth = 1000

// Parse reads data, at most maxSize bytes, whose objects must not name a
// key twice; twice says what is wrong with that, for the message.
func Parse(data []byte, maxSize int, twice string) (hujson.Value, error) {
	if len(data) > maxSize {
		return hujson.Value{}, fmt.Errorf("%d bytes, more than such a file has (at most %d)", len(data), maxSize)
	}
	if err := CheckDepth(data); err != nil {
		return hujson.Value{}, err
	}
	root, err := hujson.Parse(data)
	if err != nil {
		return hujson.Value{}, err
	}
	return root, CheckDuplicates(data, &root, twice)
}

// CheckDepth refuses bytes whose objects and arrays nest deeper than
// MaxDepth, before the parser recurses into them. It skips strings and
// comments as the parser reads them; bytes that do not parse are left to
// the parser to refuse.
func CheckDepth(data []byte) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return nil // an unclosed comment: the parser says so
			}
			i += 2 + end + 1
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return fmt.Errorf("line %d: objects and arrays nest deeper than %d levels, which no settings file does: fix the file", Line(data, i), MaxDepth)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}

// CheckDuplicates refuses an object that names a member twice: readers
// differ on which of the two they keep.
func CheckDuplicates(data []byte, v *hujson.Value, twice string) error {
	switch c := v.Value.(type) {
	case *hujson.Object:
		first := make(map[string]int, len(c.Members))
		for i := range c.Members {
			m := &c.Members[i]
			name := Text(&m.Name)
			if at, dup := first[name]; dup {
				return fmt.Errorf("line %d: the key %q is there twice (first on line %d): %s",
					Line(data, m.Name.StartOffset), name, Line(data, at), twice)
			}
			first[name] = m.Name.StartOffset
			if err := CheckDuplicates(data, &m.Value, twice); err != nil {
				return err
			}
		}
	case *hujson.Array:
		for i := range c.Elements {
			if err := CheckDuplicates(data, &c.Elements[i], twice); err != nil {
				return err
			}
		}
	}
	return nil
}

// Line is the line (from 1) that the byte at offset is on.
func Line(data []byte, offset int) int {
	return bytes.Count(data[:min(offset, len(data))], []byte("\n")) + 1
}

// Column is the column (from 1, in characters) of the byte at offset.
func Column(data []byte, offset int) int {
	offset = min(offset, len(data))
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	return utf8.RuneCount(data[start:offset]) + 1
}

// Text is a string literal's value, or "".
func Text(v *hujson.Value) string {
	if v == nil {
		return ""
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return ""
	}
	return lit.String()
}
