package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Extra holds the members of a JSON object that its Go type does not
// declare. A newer peer may add members; a hook that modifies an object
// and sends it back must not drop them, because hosts replace the whole
// object with what the hook returns.
//
// Every Extra field is tagged `json:",embed"`: Marshal and Unmarshal (the
// encoding/json/v2 API) keep unknown members in it. encoding/json (v1)
// does not know that tag, so the protocol types must go through Marshal
// and Unmarshal.
type Extra map[string]json.RawMessage

var (
	// Decoding is the v2 default, which is what a wire format wants: names
	// match exactly, a duplicate name or a number out of range is an
	// error, and nothing is read past the value. But invalid UTF-8 becomes
	// U+FFFD, as encoding/json has it: a hook that echoes an LLM's text cut
	// inside a character ("\ud83d", as Python and JavaScript escape it)
	// must still be heard.
	decodeOptions = jsontext.AllowInvalidUTF8(true)
	// Encoding is v1's output, so that a round trip gives back the same
	// JSON: omitempty omits a nil pointer but not a pointer to "", nil
	// lists and maps are null, map keys are sorted, and invalid UTF-8 in a
	// Go string becomes U+FFFD rather than an error.
	encodeOptions = jsonv2.JoinOptions(
		jsonv1.OmitEmptyWithLegacySemantics(true),
		jsonv2.FormatNilSliceAsNull(true),
		jsonv2.FormatNilMapAsNull(true),
		jsonv2.Deterministic(true),
		jsontext.AllowInvalidUTF8(true),
		jsonv2.WithMarshalers(jsonv2.MarshalToFunc(marshalNumber)),
	)
)

// marshalNumber writes an encoding/json Number as the number it holds, as
// encoding/json does; v2 would quote it. Values decoded with UseNumber,
// such as a host's options, hold them.
func marshalNumber(enc *jsontext.Encoder, n json.Number) error {
	v := jsontext.Value(n)
	if n == "" {
		v = jsontext.Value("0")
	}
	if !v.IsValid() || v.Kind() != '0' {
		return fmt.Errorf("invalid number %q", string(n))
	}
	return enc.WriteValue(v)
}

// Marshal encodes a protocol value as one line of compact JSON, with the
// members of its Extra fields.
func Marshal(v any) ([]byte, error) { return AppendMarshal(nil, v) }

// AppendMarshal appends v, encoded as Marshal encodes it, to dst.
func AppendMarshal(dst []byte, v any) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer e.free()
	e.enc.Reset(&e.buf, encodeOptions)
	if err := jsonv2.MarshalEncode(e.enc, v); err != nil {
		return dst, err
	}
	// The encoder ends each value with a line break, which is not the value's.
	return append(dst, bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))...), nil
}

// encoders are reused: setting an encoder up with the options costs more
// than encoding most messages.
var encoders = sync.Pool{New: func() any {
	e := new(encoder)
	e.enc = jsontext.NewEncoder(&e.buf, encodeOptions)
	return e
}}

type encoder struct {
	buf bytes.Buffer
	enc *jsontext.Encoder
}

// free returns the encoder to the pool, unless a long message grew it:
// one before_llm of megabytes must not stay in memory for good.
func (e *encoder) free() {
	if e.buf.Cap() <= 64<<10 {
		e.buf.Reset()
		encoders.Put(e)
	}
}

// Unmarshal decodes one JSON value into the protocol value v points to,
// keeping members its type does not declare in its Extra field. It accepts
// nothing that encoding/json would reject, and an error names the JSON
// pointer of the member at fault (see PointerError).
func Unmarshal(data []byte, v any) error {
	return pointed(jsonv2.Unmarshal(data, v, decodeOptions))
}

// PointerError is an error of Unmarshal: where in the value it is, and what.
type PointerError struct {
	// Pointer is the RFC 6901 JSON pointer of the member at fault; "" is the whole value.
	Pointer jsontext.Pointer
	// Err is the error of the decoder, a *jsontext.SyntacticError or a *json.SemanticError of encoding/json/v2.
	Err error
}

// Error is the decoder's message, which names the pointer when it is not
// the whole value.
func (e *PointerError) Error() string {
	if e.Pointer == "" {
		return "at the top level: " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *PointerError) Unwrap() error { return e.Err }

// pointed wraps an error of the decoder in a PointerError.
func pointed(err error) error {
	if err == nil {
		return nil // before the targets of errors.As, which escape to the heap
	}
	var syn *jsontext.SyntacticError
	var sem *jsonv2.SemanticError
	switch {
	case errors.As(err, &syn):
		return &PointerError{Pointer: syn.JSONPointer, Err: err}
	case errors.As(err, &sem):
		return &PointerError{Pointer: sem.JSONPointer, Err: err}
	}
	return &PointerError{Err: err}
}
