// Package vectors loads the shared test vectors of schema/testdata, which
// every language's tests run.
package vectors

import (
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
