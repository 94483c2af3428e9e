package runtime

import (
	"encoding/json"
	"maps"
	"slices"
)

// Builtin makes an in-process hook that a configuration's builtins block
// enables by name: it gets the hook's config and the folder of the
// configuration file (empty when the configuration came from memory), for
// relative paths, and returns a value implementing one or more hook
// interfaces.
type Builtin func(config json.RawMessage, dir string) (any, error)

// builtinNames are the built-ins a runtime made with opts can enable.
func builtinNames(opts Options) []string {
	return slices.Sorted(maps.Keys(opts.Builtins))
}
