// The dangerous-command blocker of the Blade Agent SDK's lifecycle hooks,
// on hookwire's Go lifecycle layer: a shell command that matches one of the
// seed's patterns aborts the turn, with the command in the reason.
package main

import (
	"context"
	"fmt"
	"regexp"

	hookwire "github.com/hookwire/hookwire/sdk-go"
	"github.com/hookwire/hookwire/sdk-go/lifecycle"
)

var dangerousPatterns = []*regexp.Regexp{
	regexp.MustCompile(`rm\s+-[a-zA-Z]*[rR]`), regexp.MustCompile(`mkfs`), regexp.MustCompile(`dd\s+if=`), regexp.MustCompile(`>\s*/dev/`),
}

// shellTools are the shell tools of the seed's agent and Claude Code (Bash),
// of PicoClaw (exec), of Gemini CLI and Qwen Code (run_shell_command), of
// Copilot CLI (bash), Factory Droid (Execute), Cursor (Shell), OpenHands
// (terminal) and of the
// reference runtime's demo (shell).
var shellTools = map[string]bool{"Bash": true, "exec": true, "run_shell_command": true, "shell": true, "bash": true, "Execute": true, "Shell": true, "terminal": true}

// blockDangerous is the seed's PreToolUse callback.
func blockDangerous(_ context.Context, in lifecycle.Input) (lifecycle.Output, error) {
	if shellTools[in.ToolName] {
		cmd := ""
		if v, ok := in.ToolInput["command"]; ok {
			cmd = fmt.Sprint(v)
		}
		for _, p := range dangerousPatterns {
			if p.MatchString(cmd) {
				return lifecycle.Output{Action: lifecycle.Abort, Reason: "dangerous command blocked: " + cmd}, nil
			}
		}
	}
	return lifecycle.Output{Action: lifecycle.Continue}, nil
}

func newHook() *hookwire.Hook {
	return lifecycle.New("dangerous-commands", lifecycle.Options{Hooks: lifecycle.Hooks{
		lifecycle.PreToolUse: {blockDangerous},
	}})
}

func main() { newHook().Main() }
