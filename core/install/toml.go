package install

import (
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// tomlSetting is the boolean at path in a TOML file, if it sets one. A
// file that does not parse is an error, with its line and column.
func tomlSetting(data []byte, path []string) (value, set bool, err error) {
	if data == nil {
		return false, false, nil
	}
	v, err := decodeTOML(data)
	if err != nil {
		return false, false, err
	}
	for _, name := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false, false, nil
		}
		v = m[name]
	}
	value, set = v.(bool)
	return value, set, nil
}

// decodeTOML reads a TOML file as the agents that read one do: one that
// does not parse (a syntax error, a byte-order mark, a table or key given
// twice) is an error, with where it is.
func decodeTOML(data []byte) (any, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%d bytes, more than a settings file has (at most %d)", len(data), MaxFileSize)
	}
	var v any = map[string]any{}
	if err := toml.Unmarshal(data, &v); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("line %d, column %d: %v", row, col, err)
		}
		return nil, err
	}
	return v, nil
}
