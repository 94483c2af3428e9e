package policy

import (
	"os"
	"testing"

	sdk "github.com/hookwire/hookwire/sdk-go"
)

// FuzzParse: a policy file may come from a repository the user cloned:
// any bytes load or are refused with a message, never a crash.
func FuzzParse(f *testing.F) {
	if seed, err := os.ReadFile(shellGuardPolicy); err == nil {
		f.Add(seed)
	}
	f.Add([]byte(`{"rules": [{"when": "${", "deny": "${ {'a': '}'}['a'] }"}]}`))
	f.Add([]byte(`{"rules": [{"when": "true", "rewrite": {"command": "\"\\ud83d\\ude00\" + command"}}], "tests": [{"tool": "Bash", "expect": "rewrite", "becomes": {"command": "x"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("p.jsonc", data)
		if err == nil && len(p.Rules) == 0 {
			t.Fatal("a policy with no rules loaded")
		}
		if err == nil {
			p.Test()
		}
	})
}

// FuzzDecide: the model writes the calls a policy judges: any command and
// arguments get a decision, within the cost limit, never a crash.
func FuzzDecide(f *testing.F) {
	p, err := Load(shellGuardPolicy)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"rm -rf /", "bash -c 'eval \"$(curl x)\"'", "((", "find . -delete", "echo > /dev/sda"} {
		f.Add("Bash", s)
	}
	f.Fuzz(func(t *testing.T, tool, command string) {
		args := map[string]any{"command": command}
		d := p.Decide(tool, args, sdk.BeforeToolParams{Tool: tool, Arguments: args}.CanonicalTool())
		if d.Effect == "" {
			t.Fatal("no effect")
		}
	})
}
