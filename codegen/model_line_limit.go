package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The reply line limit of the method table: how long a line the host reads
// when hello says none, and what each request sends instead of a longer
// reply. Every SDK renders it as a table that one generic function reads.

// LineLimit is the limit when hello says none, and the texts of the
// replacements.
type LineLimit struct {
	// DefaultBytes is the longest reply line, newline included, of a host
	// whose hello sends no max_line_bytes.
	DefaultBytes int64
	// Reason is the reason of every replacement, around the host's limit.
	Reason Template
	// CutMarker ends a string cut to fit, around the number of bytes cut.
	CutMarker Template
}

// Template is a text with one number in it: Before, the number, After.
type Template struct{ Before, After string }

// OverLimit is what a request sends instead of a reply longer than the host
// reads: an error, or else the reply cut to fit (Cut), the same action
// with the reason alone (Keep), or Result with the reason.
type OverLimit struct {
	// Error is the error sent, with the reason as its message, instead of
	// any result; nil when a result goes.
	Error *ErrorCode
	// Cut is the reply sent cut to fit; nil for none.
	Cut *Cut
	// Keep are the actions sent as they are, with the reason alone.
	Keep []string
	// Result are the members, but the reason, of what goes instead of
	// anything else, by name.
	Result []Member
}

// Cut is a reply of an action whose string at Path is cut from its end to
// fit the host's line, with the marker after it.
type Cut struct {
	Action string
	Path   []string
}

// Member is a member of an object whose value is a JSON string or boolean.
type Member struct {
	Name  string
	Value any
}

// reasonMember is the member that carries the reason of a replacement.
const reasonMember = "reason"

// loadLineLimit reads the table's line limit, which a table of requests needs, and each request's overLimit,
// holding them to the schema: a request has one, a notification none; a
// kept or cut action is one of the method's; the replacement is a value of
// the result type with a reason member.
func (m *Model) loadLineLimit(table *methodTable) error {
	var err error
	l := table.LineLimit
	if !slices.ContainsFunc(m.Methods, func(meth *Method) bool { return !meth.Notification }) {
		return nil // nothing gets a reply
	}
	if l.DefaultBytes <= 0 {
		return fmt.Errorf("lineLimit: defaultBytes %d is not a positive number of bytes", l.DefaultBytes)
	}
	m.LineLimit.DefaultBytes = l.DefaultBytes
	if m.LineLimit.Reason, err = splitTemplate("lineLimit: reason", l.Reason, "{limit}"); err != nil {
		return err
	}
	if m.LineLimit.CutMarker, err = splitTemplate("lineLimit: cutMarker", l.CutMarker, "{cut}"); err != nil {
		return err
	}
	for i, row := range table.Methods {
		meth := m.Methods[i]
		switch {
		case meth.Notification && row.OverLimit != nil:
			return fmt.Errorf("%s: a notification gets no reply, so it has no overLimit", meth.Name)
		case meth.Notification:
			continue
		case row.OverLimit == nil:
			return fmt.Errorf("%s: a request needs an overLimit: what it sends instead of a reply longer than the host reads", meth.Name)
		}
		if meth.OverLimit, err = m.overLimit(meth, row.OverLimit); err != nil {
			return fmt.Errorf("%s: overLimit: %w", meth.Name, err)
		}
	}
	return nil
}

// splitTemplate splits text around its one placeholder.
func splitTemplate(what, text, placeholder string) (Template, error) {
	before, after, ok := strings.Cut(text, placeholder)
	if !ok || strings.Contains(after, placeholder) {
		return Template{}, fmt.Errorf("%s %q must hold %s once", what, text, placeholder)
	}
	return Template{before, after}, nil
}

func (m *Model) overLimit(meth *Method, row *overLimitRow) (*OverLimit, error) {
	o := &OverLimit{Keep: row.Keep}
	if row.Error != nil {
		if row.Result != nil || row.Cut != nil || row.Keep != nil {
			return nil, errors.New("an error goes instead of any result: it takes no cut, keep or result")
		}
		i := slices.IndexFunc(m.ErrorCodes, func(c ErrorCode) bool { return c.Code == *row.Error })
		if i < 0 {
			return nil, fmt.Errorf("error %d is not one of errorCodes", *row.Error)
		}
		o.Error = &m.ErrorCodes[i]
		return o, nil
	}
	for _, a := range row.Keep {
		if err := m.replacedBy(meth, a); err != nil {
			return nil, fmt.Errorf("keep: %w", err)
		}
	}
	if row.Cut != nil {
		if err := m.replacedBy(meth, row.Cut.Action); err != nil {
			return nil, fmt.Errorf("cut: %w", err)
		}
		if err := stringAt(variantOf(meth.Result, row.Cut.Action), row.Cut.Path); err != nil {
			return nil, fmt.Errorf("cut: %w", err)
		}
		o.Cut = &Cut{row.Cut.Action, row.Cut.Path}
	}
	if row.Result == nil {
		return nil, errors.New("a result, or an error, must go instead of a reply that no other rule sends")
	}
	t := meth.Result
	if t.Kind == Union {
		var action string
		if err := json.Unmarshal(row.Result[t.Tag], &action); err != nil {
			return nil, fmt.Errorf("result: its %s must be a string", t.Tag)
		}
		if err := m.replacedBy(meth, action); err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		t = variantOf(t, action)
	}
	if !slices.ContainsFunc(t.Fields, func(f *Field) bool { return f.Name == reasonMember }) {
		return nil, fmt.Errorf("result: %s has no %s member", t.Name, reasonMember)
	}
	for _, name := range slices.Sorted(maps.Keys(row.Result)) {
		i := slices.IndexFunc(t.Fields, func(f *Field) bool { return f.Name == name })
		var value any
		_ = json.Unmarshal(row.Result[name], &value)
		switch value.(type) {
		case string, bool:
		default:
			return nil, fmt.Errorf("result: %s is %s: only strings and booleans are supported", name, row.Result[name])
		}
		if i < 0 || name == reasonMember {
			return nil, fmt.Errorf("result: %s is not a member of %s that the table may set", name, t.Name)
		}
		if r := t.Fields[i].Type; !fits(r, value) {
			return nil, fmt.Errorf("result: %s is %s, which is not a value of %s.%s", name, row.Result[name], t.Name, name)
		}
		o.Result = append(o.Result, Member{name, value})
	}
	return o, nil
}

// fits reports whether a string or boolean is a value of r.
func fits(r *Ref, value any) bool {
	switch v := value.(type) {
	case string:
		return r.Kind == String && (len(r.Consts) == 0 || slices.Contains(r.Consts, quote(v)))
	case bool:
		return r.Kind == Boolean
	}
	return false
}

// replacedBy checks that an action of a replacement is one of the method's,
// whose variant carries the reason.
func (m *Model) replacedBy(meth *Method, action string) error {
	if !slices.Contains(meth.Actions, action) {
		return fmt.Errorf("%q is not an action of %s", action, meth.Name)
	}
	v := variantOf(meth.Result, action)
	if v != nil && !slices.ContainsFunc(v.Fields, func(f *Field) bool { return f.Name == reasonMember }) {
		return fmt.Errorf("%q: %s has no %s member", action, v.Name, reasonMember)
	}
	return nil
}

// variantOf is the variant of a union that an action selects, or nil.
func variantOf(u *Type, action string) *Type {
	for _, v := range u.Variants {
		if slices.Contains(v.Tags, action) {
			return v.Type
		}
	}
	return nil
}

// stringAt checks that path leads, through object members, to a string.
func stringAt(t *Type, path []string) error {
	if len(path) == 0 {
		return errors.New("the path is empty")
	}
	for i, name := range path {
		j := slices.IndexFunc(t.Fields, func(f *Field) bool { return f.Name == name })
		if j < 0 {
			return fmt.Errorf("%s has no member %s", t.Name, name)
		}
		r := t.Fields[j].Type
		if i == len(path)-1 {
			if r.Kind != String {
				return fmt.Errorf("%s.%s is not a string", t.Name, name)
			}
			return nil
		}
		if r.Kind != Named || r.Type.Kind != Object {
			return fmt.Errorf("%s.%s is not an object", t.Name, name)
		}
		t = r.Type
	}
	return nil
}
