package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/hookwire/hookwire/core/audit"
)

var auditCommand = command{
	name: "audit",
	args: "verify [--json] [FILE]",
	summary: `Checks the audit log, where hookwire run, the bridge and hookwire mcp
append a record of every hook decision, each record naming the hash of the
one before it. Prints each record edited, removed or moved since it was
written, and where; exits 0 when the chain holds, 1 otherwise. FILE is the
log (its rotated files FILE.<number> beside it are read first); unset, the
log HOOKWIRE_AUDIT names, or this user's: ` + "`$XDG_STATE_HOME/hookwire/audit.jsonl`" + `
(~/.local/state/hookwire/audit.jsonl). HOOKWIRE_AUDIT=off writes no log.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		jsonOut := fs.Bool("json", false, "print the report as one JSON object")
		return func(args []string, e env) int {
			if len(args) == 0 || args[0] != "verify" || len(args) > 2 {
				return e.fail(exitUsage, "audit", errors.New("usage: hookwire audit verify [--json] [FILE]"))
			}
			path := ""
			if len(args) == 2 {
				path = args[1]
			} else {
				p, err := audit.PathFromEnv()
				if err != nil {
					return e.fail(exitFail, "audit", err)
				}
				if p == "" {
					return e.fail(exitUsage, "audit", fmt.Errorf("%s=off: no log is written; name the file to check", audit.EnvPath))
				}
				path = p
			}
			r, err := audit.Verify(path)
			if err != nil {
				return e.fail(exitFail, "audit", err)
			}
			if *jsonOut {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(r); err != nil {
					return e.fail(exitFail, "audit", err)
				}
			} else {
				for _, p := range r.Problems {
					fmt.Fprintln(e.stdout, p)
				}
				verdict := "the chain holds"
				if !r.OK() {
					verdict = plural(len(r.Problems), "problem")
				}
				files := ""
				if len(r.Files) > 1 {
					files = fmt.Sprintf(" in %d files", len(r.Files))
				}
				fmt.Fprintf(e.stdout, "%s: %s, %d to %d, written %s to %s%s: %s\n",
					path, plural(r.Records, "record"), r.First, r.Last, r.FirstTime, r.LastTime, files, verdict)
			}
			if !r.OK() {
				return exitFail
			}
			return exitOK
		}
	},
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
