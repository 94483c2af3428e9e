package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tailscale/hujson"
)

// testCase reads the n-th test case at v.
func (r reader) testCase(v *hujson.Value, n int) (Case, error) {
	if err := r.unknownKeys(v, "test", "name", "tool", "arguments", "expect", "rule", "becomes"); err != nil {
		return Case{}, err
	}
	m := members(v)
	c := Case{Name: "test " + strconv.Itoa(n), At: r.at(v)}
	var err error
	for key, dst := range map[string]*string{"name": &c.Name, "tool": &c.Tool, "expect": &c.Expect, "rule": &c.Rule} {
		if m[key] != nil {
			if *dst, err = r.str(m[key], key); err != nil {
				return c, err
			}
		}
	}
	if c.Tool == "" {
		return c, r.fault(v, c.Name+` has no "tool": the tool the agent calls, as it names it (Bash, run_shell_command, exec)`)
	}
	if !slices.Contains([]string{Deny, Ask, Allow, Rewrite, Continue}, c.Expect) {
		return c, r.fault(v, c.Name+`'s "expect" is one of deny, ask, allow, rewrite, continue`)
	}
	if a := m["arguments"]; a != nil {
		if err := r.decodeInto(a, &c.Arguments, `"arguments" is an object`); err != nil {
			return c, err
		}
	}
	if b := m["becomes"]; b != nil {
		if err := r.decodeInto(b, &c.Becomes, `"becomes" is an object of new members: command, path, url, pattern, each a string`); err != nil {
			return c, err
		}
		if c.Expect != Rewrite {
			return c, r.fault(b, `"becomes" goes with "expect": "rewrite"`)
		}
	}
	return c, nil
}

// decodeInto decodes the JSON value at v into dst, or says msg there.
func (r reader) decodeInto(v *hujson.Value, dst any, msg string) error {
	std := v.Clone()
	std.Standardize()
	if err := json.Unmarshal(std.Pack(), dst); err != nil {
		return r.fault(v, msg)
	}
	return nil
}

// readBounded reads a policy file, refusing one over MaxFileSize.
func readBounded(r io.Reader) ([]byte, error) {
	var b bytes.Buffer
	if _, err := io.CopyN(&b, r, MaxFileSize+1); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if b.Len() > MaxFileSize {
		return nil, fmt.Errorf("more than %d bytes, more than a policy has", MaxFileSize)
	}
	return b.Bytes(), nil
}
