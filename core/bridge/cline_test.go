package bridge

import (
	"encoding/json"
	"strings"
	"testing"
)

// Whatever shape of run_commands' input Cline runs, the hook reads every
// command the call runs, in "commands", in "command" and in the canonical
// command; a "command" of the model's that Cline does not run is not what
// the hook reads.
func TestEveryShapeOfClinesRunCommandsReachesTheHookAsItsCommands(t *testing.T) {
	for _, input := range []string{
		`"rm -rf /x"`,
		`["ls", "rm -rf /x"]`,
		`{"commands": ["ls", "rm -rf /x"]}`,
		`{"commands": "rm -rf /x"}`,
		`{"commands": [{"command": "rm", "args": ["-rf", "/x"]}]}`,
		`{"command": "rm", "args": ["-rf", "/x"]}`,
		`{"command": "rm -rf /x"}`,
		`{"cmd": "rm -rf /x"}`,
		`{"commands": ["rm -rf /x"], "command": "ls"}`,
	} {
		ev, err := Agents["cline"].Parse([]byte(`{"hookName": "tool_call", "taskId": "t", "tool_call": {"id": "c", "name": "run_commands", "input": ` + input + `}}`))
		if err != nil {
			t.Fatal(input, err)
		}
		args := ev.object("tool_input")
		command, _ := args["command"].(string)
		what := canonical("cline", ev, ev.str("tool_name"), args)
		read := func(s string) string { return strings.NewReplacer("'", "").Replace(s) }
		if !strings.Contains(read(command), "rm -rf /x") || what.Command == nil || !strings.Contains(read(*what.Command), "rm -rf /x") || args["commands"] == nil {
			got, _ := json.Marshal(args)
			t.Errorf("%s: the hook reads %s, canonical %v", input, got, what.Command)
		}
	}
}
