package main

import (
	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/host"
)

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
