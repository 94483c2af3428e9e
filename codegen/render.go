package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"text/template"
)

//go:embed templates
var templates embed.FS

// Output is one generated file.
type Output struct {
	// Path is relative to the repository root.
	Path string
	Data []byte
}

// Render renders the model into every generated file.
func Render(m *Model) ([]Output, error) {
	files := []struct {
		path, tmpl string
		funcs      template.FuncMap
		gofmt      bool
		// parts are more files of named templates that tmpl calls.
		parts []string
	}{
		{"sdk-go/protocol_gen.go", "go.tmpl", goFuncs(m), true, nil},
		{"sdk-go/hook_gen.go", "go_hook.tmpl", goFuncs(m), true, nil},
		{"sdk-python/src/hookwire/_protocol_gen.py", "python.tmpl", pyFuncs(m), false, nil},
		{"sdk-python/src/hookwire/_methods_gen.py", "python_methods.tmpl", pyFuncs(m), false, nil},
		{"sdk-node/src/protocol.gen.ts", "ts.tmpl", tsFuncs(m), false, nil},
		{"sdk-node/src/methods.gen.ts", "ts_methods.tmpl", tsFuncs(m), false, nil},
		{"sdk-node/src/exports.gen.ts", "ts_exports.tmpl", tsFuncs(m), false, nil},
		{"docs/protocol.md", "docs.tmpl", docFuncs(m), false, nil},
		{"docs/actions.md", "actions.tmpl", docFuncs(m), false, nil},
	}
	var out []Output
	for _, f := range files {
		data, err := execute(f.tmpl, f.parts, m, f.funcs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		if f.gofmt {
			formatted, err := format.Source(data)
			if err != nil {
				return nil, fmt.Errorf("%s: the rendered Go does not parse: %w", f.path, err)
			}
			data = formatted
		}
		out = append(out, Output{f.path, data})
	}
	return out, nil
}

func execute(name string, parts []string, m *Model, funcs template.FuncMap) ([]byte, error) {
	t := template.New(name).Funcs(commonFuncs(m)).Funcs(funcs)
	patterns := []string{"templates/" + name}
	for _, p := range parts {
		patterns = append(patterns, "templates/"+p)
	}
	t, err := t.ParseFS(templates, patterns...)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// commonFuncs are the template functions every language uses.
func commonFuncs(m *Model) template.FuncMap {
	return template.FuncMap{
		"sources":    func() string { return strings.Join(m.Sources, " and ") },
		"pascal":     pascal,
		"snake":      snake,
		"screaming":  screaming,
		"plural":     plural,
		"methodName": methodName,
		"join":       strings.Join,
		"last":       func(i, n int) bool { return i == n-1 },
		"resultOf":   m.resultOf,
		"ordered":    m.Ordered,
		"quote":      quote,
		"actions":    func() []action { return actions(m) },
		"named":      m.Type,
		"allowed":    allowed,
		"overLimits": func() []*Method { return overLimits(m) },
		"mebibytes":  mebibytes,
	}
}

// plural names the list of an enum's values: Action, Actions.
func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.ContainsAny(s[len(s)-2:len(s)-1], "aeiou"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// comment renders text as line comments with the given prefix ("// ",
// "# "), one per line of text, with an extension's reason appended.
func comment(prefix, text, extension string) string {
	if extension != "" {
		if text != "" {
			text += "\n\n"
		}
		text += "hookwire extension: " + extension
	}
	if text == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimRight(prefix+line, " ") + "\n")
	}
	return b.String()
}

// quote is a string as a JSON literal, which is also a valid string literal
// in Python and TypeScript.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// oneLine joins a multi-line description for places that take one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// allowed lists a union's tag values for an error message: "continue",
// "modify" (never the empty tag: see shown).
func allowed(u *Type) string {
	var out []string
	for _, v := range u.TagValues() {
		out = append(out, quote(v))
	}
	return strings.Join(shown(out), ", ")
}

// shown are the quoted values a user reads in a list of what to send: all
// but "", which hosts read as continue and the decoders accept, but which
// no list of actions offers.
func shown(quoted []string) []string {
	return slices.DeleteFunc(slices.Clone(quoted), func(q string) bool { return q == `""` })
}

// article is "a" or "an" for a name, by its first letter.
func article(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an"
	}
	return "a"
}

// orList joins words as "a, b or c".
func orList(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}
