package main

import (
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/config"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/internal/cli"
)

// keyOffset is pointerOffset for the dotted keys of config's problems,
// such as "hooks.processes.a.b.intercept[1]": a name may hold dots, so the
// members the file has tell where each ends.
func keyOffset(root *hujson.Value, key string) int {
	v, off := root, root.StartOffset
	for key != "" {
		var tok string
		switch c := v.Value.(type) {
		case *hujson.Object:
			for _, m := range c.Members {
				n := strValue(&m.Name)
				if rest, ok := strings.CutPrefix(key, n); ok && len(n) > len(tok) && (rest == "" || rest[0] == '.' || rest[0] == '[') {
					tok = n
				}
			}
			if tok == "" {
				return v.StartOffset
			}
			key = strings.TrimPrefix(key[len(tok):], ".")
		case *hujson.Array:
			end := strings.IndexByte(key, ']')
			if !strings.HasPrefix(key, "[") || end < 0 {
				return v.StartOffset
			}
			tok, key = key[1:end], strings.TrimPrefix(key[end+1:], ".")
		default:
			return v.StartOffset
		}
		name, next := step(v, tok)
		if next == nil {
			return v.StartOffset
		}
		v, off = next, name
	}
	return off
}

// problem says a configuration's problem, with the nearest known name for
// a name that means nothing there.
func problem(p config.Problem, prefix string) string {
	if p.Word != "" {
		if s := cli.DidYouMean(p.Word, slices.Concat(p.Known, p.Near)); s != "" {
			return prefix + p.Key + ": " + p.Reason + s
		}
	}
	return prefix + p.Error()
}

// hooks checks hookwire's hooks.json, or, for PicoClaw's file or under
// --host picoclaw, the whole file as PicoClaw loads it (hostConfig).
func (c *checker) hooks(data []byte, root *hujson.Value, kind string) []fault {
	if !root.IsStandard() {
		return []fault{syntaxFault(data)}
	}
	h := c.host
	if kind == kindPicoClaw && h.CheckConfig == nil {
		h = host.PicoClaw
	}
	if h.CheckConfig != nil {
		return hostConfig(h, data, root)
	}
	var faults []fault
	for _, p := range config.HooksProblems(data) {
		faults = append(faults, fault{keyOffset(root, p.Key), problem(p, "")})
	}
	return faults
}

// hostConfig checks a whole configuration file as host h loads it: each
// key it refuses, and a warning of what it does to a file it takes.
func hostConfig(h *host.Host, data []byte, root *hujson.Value) []fault {
	var faults []fault
	for _, p := range h.CheckConfig(data) {
		f := fault{off: -1}
		if p.Key != "" {
			f.off = keyOffset(root, p.Key)
		}
		switch {
		case p.Warning:
			f.msg = problem(p, warningPrefix)
		case p.Key == "" && p.Word == "":
			f.msg = h.Title + " refuses the file: " + p.Reason
		default:
			f.msg = problem(p, h.Title+" refuses ")
		}
		faults = append(faults, f)
	}
	return faults
}
