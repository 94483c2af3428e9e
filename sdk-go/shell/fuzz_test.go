package shell

import (
	"slices"
	"testing"
)

// FuzzRead holds Read to its bounds on any input: it never panics, every
// loop ends, and the reading is well formed. core/internal/shelloracle
// holds it to mvdan.cc/sh as well.
func FuzzRead(f *testing.F) {
	for _, v := range readVectors(f) {
		if cmd := v.command(); len(cmd) < 4096 {
			f.Add(cmd)
		}
	}
	reasons := []string{ReasonSyntax, ReasonDynamicProgram, ReasonShellStdin, ReasonAlias, ReasonArithmetic, ReasonDepth, ReasonTooLong}
	f.Fuzz(func(t *testing.T, cmd string) {
		r := Read(cmd)
		for _, u := range r.Unknown {
			if !slices.Contains(reasons, u.Reason) {
				t.Fatalf("%q: unknown reason %q", cmd, u.Reason)
			}
		}
		for _, c := range r.Commands {
			if len(c.Args) == 0 {
				t.Fatalf("%q: a command with no args", cmd)
			}
			for i, d := range c.Dynamic {
				if d < 0 || d >= len(c.Args) || i > 0 && d <= c.Dynamic[i-1] {
					t.Fatalf("%q: dynamic %v out of order or range in %q", cmd, c.Dynamic, c.Args)
				}
			}
			// What the reader lists comes from the input: a word that is
			// not dynamic is the input's text after quote removal, no
			// longer than it but for $'...' escapes.
			for _, a := range c.Args {
				if len(a) > 4*len(cmd) {
					t.Fatalf("%q: an argument longer than the input: %q", cmd, a)
				}
			}
		}
		// A reading of the same input is the same reading.
		if again := Read(cmd); len(again.Commands) != len(r.Commands) || len(again.Unknown) != len(r.Unknown) {
			t.Fatalf("%q: read twice, read differently", cmd)
		}
	})
}
