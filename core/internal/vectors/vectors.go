// Package vectors loads the shared test vectors of schema/testdata, which
// every language's tests run.
package vectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
)

// Vector is one file of schema/testdata/valid or schema/testdata/invalid.
type Vector struct {
	// Name is the file name without .json.
	Name string
	// Valid is true for vectors under valid/.
	Valid       bool
	Description string          `json:"description"`
	Method      string          `json:"method"`
	Message     json.RawMessage `json:"message"`
	Params      json.RawMessage `json:"params"`
	Result      json.RawMessage `json:"result"`
	Def         string          `json:"def"`
	Value       json.RawMessage `json:"value"`
	// Path is, for an invalid vector, the JSON Pointer of its fault.
	Path *string `json:"path"`
}

// Dir is schema/testdata of this repository.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "schema", "testdata")
}

// Load reads every vector, valid ones first, each group sorted by name.
func Load() ([]Vector, error) {
	var all []Vector
	for _, group := range []string{"valid", "invalid"} {
		files, err := filepath.Glob(filepath.Join(Dir(), group, "*.json"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			v := Vector{Name: filepath.Base(f[:len(f)-len(".json")]), Valid: group == "valid"}
			if err := json.Unmarshal(data, &v); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			all = append(all, v)
		}
	}
	return all, nil
}

// ExchangeLines are the lines of the exchange vectors of
// schema/testdata/exchanges: what a host writes (in) and what a hook
// answers (out), as seeds for the fuzz targets.
func ExchangeLines() (in, out [][]byte, err error) {
	files, err := filepath.Glob(filepath.Join(Dir(), "exchanges", "*.txtar"))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		for _, section := range bytes.Split(data, []byte("\n-- "))[1:] {
			name, body, _ := bytes.Cut(section, []byte("\n"))
			for _, line := range bytes.Split(body, []byte("\n")) {
				switch {
				case len(line) == 0:
				case bytes.HasPrefix(name, []byte("in --")):
					in = append(in, line)
				case bytes.HasPrefix(name, []byte("out --")):
					out = append(out, line)
				}
			}
		}
	}
	return in, out, nil
}
