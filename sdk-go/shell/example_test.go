package shell_test

import (
	"fmt"

	"github.com/hookwire/hookwire/sdk-go/shell"
)

// guard denies a command line that deletes recursively, however it is
// spelled, and refuses one it cannot read.
func guard(command string) string {
	r := shell.Read(command)
	for _, c := range r.Commands {
		switch c.Name() {
		case "rm":
			if c.HasFlag('r', "recursive") || c.HasFlag('R', "") {
				return "deny: " + c.Name() + " deletes recursively"
			}
		case "find":
			for _, a := range c.Args[1:] {
				if a == "-delete" {
					return "deny: find -delete"
				}
			}
		}
	}
	if len(r.Unknown) > 0 {
		return "refuse: cannot read (" + r.Unknown[0].Reason + ")"
	}
	return "allow"
}

func Example() {
	for _, cmd := range []string{
		"rm --recursive --force ./build",
		`r\m -fr build`,
		"sudo bash -c 'cd / && rm -R tmp/x'",
		"find . -name '*.o' -delete",
		`echo 'rm -rf /'`,
		`git commit -m "rm -rf the old build"`,
		"$CMD -rf build",
		"git status && go test ./... 2>&1 | tail -20",
	} {
		fmt.Printf("%-42s %s\n", cmd, guard(cmd))
	}
	// Output:
	// rm --recursive --force ./build             deny: rm deletes recursively
	// r\m -fr build                              deny: rm deletes recursively
	// sudo bash -c 'cd / && rm -R tmp/x'         deny: rm deletes recursively
	// find . -name '*.o' -delete                 deny: find -delete
	// echo 'rm -rf /'                            allow
	// git commit -m "rm -rf the old build"       allow
	// $CMD -rf build                             refuse: cannot read (dynamic-program)
	// git status && go test ./... 2>&1 | tail -20 allow
}
