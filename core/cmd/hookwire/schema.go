package main

import (
	"errors"
	"flag"

	"github.com/hookwire/hookwire/core/schema"
)

var schemaCommand = command{
	name:    "schema",
	args:    "",
	summary: "Prints the JSON Schema of the protocol (draft 2020-12), the one in schema/hookwire.schema.json.",
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		return func(args []string, e env) int {
			if len(args) > 0 {
				return e.fail(exitUsage, "schema", errors.New("takes no arguments (see hookwire schema --help)"))
			}
			doc, err := schema.JSON()
			if err != nil {
				return e.fail(exitFail, "schema", err)
			}
			e.stdout.Write(doc)
			return exitOK
		}
	},
}
