package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// schema is the subset of JSON Schema (draft 2020-12) that the protocol
// schema uses. Keywords that only validate (minimum, pattern, ...) are not
// listed: they change no type, and core's validator checks them.
type schema struct {
	Ref                  string          `json:"$ref"`
	Type                 string          `json:"type"`
	Const                json.RawMessage `json:"const"`
	Enum                 []json.RawMessage
	Title                string
	Description          string
	Properties           *properties
	Required             []string
	Items                *schema
	AdditionalProperties *schema `json:"additionalProperties"`
	AnyOf                []*schema
	OneOf                []*schema
	AllOf                []*schema
	Discriminator        *discriminator
	Extension            string             `json:"x-hookwire-extension"`
	Defs                 map[string]*schema `json:"$defs"`
}

type discriminator struct {
	PropertyName string
	Mapping      map[string]string
}

// UnmarshalJSON also reads the boolean schemas: true (and {}) allow any
// value; false allows none, which no message field can use.
func (s *schema) UnmarshalJSON(data []byte) error {
	switch string(bytes.TrimSpace(data)) {
	case "true":
		*s = schema{}
		return nil
	case "false":
		return fmt.Errorf("the schema false is not supported")
	}
	type plain schema
	return json.Unmarshal(data, (*plain)(s))
}

// properties keeps the order of an object's properties, so that generated
// types list their fields in the order of the Go structs they come from.
type properties struct {
	names   []string
	schemas map[string]*schema
}

func (p *properties) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("properties: want an object")
	}
	p.schemas = map[string]*schema{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name := t.(string)
		var s schema
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		p.names = append(p.names, name)
		p.schemas[name] = &s
	}
	_, err := dec.Token()
	return err
}

// methodTable is schema/methods.json.
type methodTable struct {
	Version int
	Methods []struct {
		Method    string
		Kind      string
		Mode      string
		Params    string
		Result    string
		Actions   []string
		OverLimit *overLimitRow
	}
	EventKinds       []string
	LegacyEventKinds map[string]string
	HostExtensions   []struct{ Name, Doc string }
	ErrorCodes       []struct {
		Name string
		// Code is kept as written, so that Load can refuse anything but
		// an integer literal: json.Number would take "-32700", a string.
		Code json.RawMessage
		Doc  string
	}
	LineLimit struct {
		DefaultBytes int64
		Reason       string
		CutMarker    string
	}
}

// overLimitRow is a method's overLimit: what it sends instead of a reply
// longer than the host reads.
type overLimitRow struct {
	Error *int64
	Cut   *struct {
		Action string
		Path   []string
	}
	Keep   []string
	Result map[string]json.RawMessage
}
