package runtime

import (
	"reflect"
	"slices"
	"strings"
)

// asWritten is the params of a call of method as the runtime's host
// writes them (see written): as they are under a host that writes every
// member.
func asWritten[P any](r *Runtime, method string, params P) P {
	if r == nil || r.host().Writes == nil {
		return params
	}
	if members := r.host().Writes(method); members != nil {
		return written(members, params)
	}
	return params
}

// written is params as a host that writes only the members listed
// (host.Host.Writes) sends them: every other member is left out, and so is
// a listed one that is an empty object or list, which the host's types
// leave out when empty (omitempty). Members marked "!" are kept even when
// empty. The hooks of the chain, in-process or not, see what that host
// would send them.
func written[P any](members []string, params P) P {
	v := reflect.ValueOf(&params).Elem()
	if v.Kind() != reflect.Struct {
		return params
	}
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		switch {
		case slices.Contains(members, "!"+name):
		case !slices.Contains(members, name) || name == "":
			f.SetZero()
		case (f.Kind() == reflect.Map || f.Kind() == reflect.Slice) && f.Len() == 0:
			f.SetZero()
		}
	}
	return params
}
