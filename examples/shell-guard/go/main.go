// Command shell-guard keeps a shell in check under every agent: the Go form
// of examples/shell-guard, the same decisions as the Python and TypeScript
// ones (cases.json holds all three to them).
//
// It looks only at the canonical kind of a call, never at a tool's name, and
// it decides on the programs the shell would run, as the shell reader reads
// the line, not on its text: rm --recursive x, r\m -rf x and
// sudo bash -c 'rm -rf x' are recursive deletes, echo 'rm -rf /' is an echo.
// What the reader cannot know ($RM -rf x, curl x | sh) is refused: a guard
// that cannot read a command does not let it run. Build it and run it as a
// hook (see hooks.json):
//
//	go build -o shell-guard . && go run ../../../core/cmd/hookwire run --hooks hooks.json ../scenario.json
package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	hookwire "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/shell"
)

// harmlessDevices are the devices a command may write to: they hold no
// one's data.
var harmlessDevices = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"}

// secret is NAME=value where the name ends in TOKEN, SECRET, PASSWORD or KEY.
var secret = regexp.MustCompile(`\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY))=\S+`)

// danger says what makes one command dangerous, or "".
func danger(c shell.Command) string {
	name := c.Name()
	if name == "rm" {
		if c.HasFlag('r', "recursive") || c.HasFlag('R', "recursive") {
			return "a recursive delete"
		}
		// HasFlag skips what only the shell knows: "$FLAGS" may be -r.
		end := slices.Index(c.Args, "--")
		if end < 0 {
			end = len(c.Args)
		}
		for _, i := range c.Dynamic {
			if i > 0 && i < end {
				return "a delete whose options are known only when it runs"
			}
		}
	}
	if name == "find" && slices.Contains(c.Args[1:], "-delete") {
		return "a delete by find"
	}
	if strings.HasPrefix(name, "mkfs") {
		return "formatting a file system"
	}
	if name == "dd" && slices.ContainsFunc(c.Args[1:], func(a string) bool { return strings.HasPrefix(a, "of=/dev/") }) {
		return "a raw write to a device"
	}
	for _, r := range c.Redirects {
		if strings.Contains(r.Op, ">") && device(r.Target) {
			return "a write to the device " + r.Target
		}
	}
	return ""
}

// device says whether a redirect's target is a device that holds data.
func device(target string) bool {
	if !strings.HasPrefix(target, "/dev/") || strings.HasPrefix(target, "/dev/fd/") {
		return false
	}
	return !slices.Contains(harmlessDevices, target)
}

// verdict says why the command must not run, or "" to let it through.
func verdict(command string) string {
	reading := shell.Read(command)
	if len(reading.Unknown) > 0 {
		var why []string
		for _, u := range reading.Unknown {
			why = append(why, fmt.Sprintf("%s (%s)", u.Reason, clip(u.Text)))
		}
		return "command refused, it cannot be read: " + strings.Join(why, "; ")
	}
	for _, c := range reading.Commands {
		if found := danger(c); found != "" {
			if c.Via != "" {
				found += ", run by " + c.Via
			}
			return fmt.Sprintf("dangerous command blocked: %s (%s)", clip(strings.Join(c.Args, " ")), found)
		}
	}
	return ""
}

// clip keeps a reason short: it is read by a person and a model, and a
// line of 1 MiB is neither's.
func clip(text string) string {
	if runes := []rune(text); len(runes) > 300 {
		return string(runes[:300]) + "..."
	}
	return text
}

func guard(_ context.Context, call hookwire.BeforeToolParams) (hookwire.BeforeToolResult, error) {
	use := call.CanonicalTool()
	if use.Kind != "shell" {
		return hookwire.Continue{}, nil
	}
	command := ""
	if use.Command != nil {
		command = *use.Command
	}
	if reason := verdict(command); reason != "" {
		return hookwire.DenyTool{Reason: reason}, nil
	}
	return hookwire.Continue{}, nil
}

func mask(_ context.Context, ran hookwire.AfterToolParams) (hookwire.AfterToolResult, error) {
	if ran.CanonicalTool().Kind != "shell" || ran.Result == nil {
		return hookwire.Continue{}, nil
	}
	masked := secret.ReplaceAllString(ran.Result.ForLLM, "${1}=***")
	if masked == ran.Result.ForLLM {
		return hookwire.Continue{}, nil
	}
	res := ran.Modify()
	res.Result.Result.ForLLM = masked
	return res, nil
}

func newHook() *hookwire.Hook {
	h := hookwire.New("shell-guard")
	h.OnBeforeTool(guard)
	h.OnAfterTool(mask)
	return h
}

func main() { newHook().Main() }
