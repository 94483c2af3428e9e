package main

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode"
)

// Method is a row of the method table.
type Method struct {
	Name         string
	Notification bool
	// Mode is the hello mode that receives the method; "" for none.
	Mode    string
	Params  *Type
	Result  *Type // nil for a notification
	Actions []string
	// OverLimit is what the request sends instead of a reply longer than
	// the host reads; nil for a notification.
	OverLimit *OverLimit
}

// LegacyKind pairs an old observe kind with its runtime event kind.
type LegacyKind struct{ Legacy, Kind string }

// Extension is a type, or a field of a type, that hookwire adds to the
// protocol of the source documents.
type Extension struct {
	Type, Field, Why string
}

// HostExtension is a behaviour a host announces in hook.hello.
type HostExtension struct{ Name, Doc string }

// ErrorCode is a JSON-RPC error code of the protocol.
type ErrorCode struct {
	Name string
	Code int64
	Doc  string
}

// The method table's modes and actions are values of these enums.
const (
	modeEnum   = "Mode"
	actionEnum = "Action"
)

func (m *Model) loadMethods(table *methodTable, byName map[string]*Type) error {
	enumValues := func(enum string) []string {
		if t := byName[enum]; t != nil && t.Kind == Enum {
			return t.Values
		}
		return nil
	}
	for _, row := range table.Methods {
		meth := &Method{Name: row.Method, Mode: row.Mode, Actions: row.Actions}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s: %s", row.Method, fmt.Sprintf(format, args...))
		}
		switch row.Kind {
		case "request":
		case "notification":
			meth.Notification = true
		default:
			return fail("kind %q is neither request nor notification", row.Kind)
		}
		if row.Mode != "" && !slices.Contains(enumValues(modeEnum), row.Mode) {
			return fail("mode %q is not a value of $defs/%s", row.Mode, modeEnum)
		}
		var err error
		if meth.Params, err = named("#/$defs/"+row.Params, byName); err != nil {
			return fail("params: %v", err)
		}
		if meth.Params.Kind != Object {
			return fail("params %s is not an object", row.Params)
		}
		if meth.Notification != (row.Result == "") {
			return fail("a request has a result and a notification has none")
		}
		if row.Result != "" {
			if meth.Result, err = named("#/$defs/"+row.Result, byName); err != nil {
				return fail("result: %v", err)
			}
		}
		if err := checkActions(meth, enumValues(actionEnum)); err != nil {
			return fail("%v", err)
		}
		m.Methods = append(m.Methods, meth)
	}
	m.EventKinds = table.EventKinds
	for _, legacy := range slices.Sorted(maps.Keys(table.LegacyEventKinds)) {
		m.LegacyEventKinds = append(m.LegacyEventKinds, LegacyKind{legacy, table.LegacyEventKinds[legacy]})
	}
	return nil
}

// loadConstants reads the host extensions and the error codes, which
// every language renders as named constants.
func (m *Model) loadConstants(table *methodTable) error {
	ext := names{list: "hostExtensions"}
	for _, e := range table.HostExtensions {
		if err := ext.add(e.Name); err != nil {
			return err
		}
		m.HostExtensions = append(m.HostExtensions, HostExtension{e.Name, e.Doc})
	}
	codes := names{list: "errorCodes"}
	seen := map[int64]string{}
	for _, c := range table.ErrorCodes {
		if err := codes.add(c.Name); err != nil {
			return err
		}
		code, err := strconv.ParseInt(string(c.Code), 10, 64)
		if err != nil {
			return fmt.Errorf("errorCodes: %s: code %s is not an integer", c.Name, cmp.Or(string(c.Code), "(absent)"))
		}
		if other, dup := seen[code]; dup {
			return fmt.Errorf("errorCodes: %s and %s are both %d", other, c.Name, code)
		}
		seen[code] = c.Name
		m.ErrorCodes = append(m.ErrorCodes, ErrorCode{c.Name, code, c.Doc})
	}
	return nil
}

// names checks that the names of one list give distinct identifiers in
// every language: "a.b" and "a_b" are both AB in Go, "ABC" and "abc" are
// both ABC in Python.
type names struct {
	list string
	seen map[string]string
}

func (n *names) add(name string) error {
	ws := words(name)
	if len(ws) == 0 || !unicode.IsLetter([]rune(ws[0])[0]) {
		return fmt.Errorf("%s: %q does not start with a letter, so it names no constant", n.list, name)
	}
	if n.seen == nil {
		n.seen = map[string]string{}
	}
	for _, id := range []struct{ lang, name string }{{"Go", pascal(name)}, {"Python", screaming(name)}} {
		key := id.lang + " " + id.name
		if other, dup := n.seen[key]; dup {
			if other == name {
				return fmt.Errorf("%s: %q is listed twice", n.list, name)
			}
			return fmt.Errorf("%s: %q and %q are both %s in %s", n.list, other, name, id.name, id.lang)
		}
		n.seen[key] = name
	}
	return nil
}

// checkActions holds the table's actions to the result union: the same
// set, every one a value of the Action enum.
func checkActions(meth *Method, known []string) error {
	if meth.Result == nil || meth.Result.Kind != Union {
		if len(meth.Actions) > 0 {
			return errors.New("actions are listed, but the result is not a union")
		}
		return nil
	}
	var tags []string
	for _, v := range meth.Result.Variants {
		for _, tag := range v.Tags {
			if tag != "" {
				tags = append(tags, tag)
			}
		}
	}
	for _, a := range meth.Actions {
		if !slices.Contains(known, a) {
			return fmt.Errorf("action %q is not a value of $defs/%s", a, actionEnum)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(tags)), slices.Sorted(slices.Values(meth.Actions))) {
		return fmt.Errorf("actions %v differ from the %s values of %s %v", meth.Actions, meth.Result.Tag, meth.Result.Name, tags)
	}
	return nil
}
