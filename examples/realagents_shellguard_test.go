package examples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/audit"
)

// shellGuardSpelling is a recursive delete as a model may spell it, of its
// own folder, and the end of the reason the shell guard gives for it
// (what it read, then what it found), which must reach the model or the
// user.
type shellGuardSpelling struct {
	command func(folder string) string
	told    func(folder string) string
}

// shellGuardSpellings are the spellings the real agents run the shell guard
// with. The agents run without sudo, so bash -c stands for the wrappers.
var shellGuardSpellings = []shellGuardSpelling{
	{func(f string) string { return "rm --recursive --force " + f }, func(f string) string { return f + " (a recursive delete)" }},
	{func(f string) string { return "rm -fr " + f }, func(f string) string { return f + " (a recursive delete)" }},
	{func(f string) string { return "rm -r -f " + f }, func(f string) string { return f + " (a recursive delete)" }},
	{func(f string) string { return `r\m -rf ` + f }, func(f string) string { return f + " (a recursive delete)" }},
	{func(f string) string { return "bash -c 'rm -rf " + f + "'" }, func(f string) string { return f + " (a recursive delete, run by bash)" }},
	{func(f string) string { return "find " + f + " -delete" }, func(f string) string { return f + " -delete (a delete by find)" }},
}

// A shellGuard is a guard of the shell the real agents run: its command,
// its environment, and what it tells of each spelling's command.
type shellGuard struct {
	hook []string
	env  []string
	told func(s shellGuardSpelling, command, folder string) string
}

// theShellGuardExample is examples/shell-guard, in Python.
func theShellGuardExample() shellGuard {
	sdk, _ := filepath.Abs("../sdk-python/src")
	guard, _ := filepath.Abs("shell-guard/python/shell_guard.py")
	return shellGuard{[]string{"python3", guard}, []string{"PYTHONPATH=" + sdk},
		func(s shellGuardSpelling, _, folder string) string { return s.told(folder) }}
}

// theShellGuardPolicy is the shell guard as a policy, no code:
// examples/policy/shell-guard.jsonc under hookwire policy.
func theShellGuardPolicy() shellGuard {
	policy, _ := filepath.Abs("policy/shell-guard.jsonc")
	return shellGuard{[]string{cli, "policy", policy}, nil,
		// The policy's message ends with the whole command line, then what
		// it is; what comes before the folder may be spelt otherwise by the
		// time the guard sees it.
		func(s shellGuardSpelling, command, folder string) string {
			before, after, _ := strings.Cut(command, folder)
			if strings.HasPrefix(before, "find ") {
				return folder + after + " (a delete by find)"
			}
			return folder + after + " (a recursive delete)"
		}}
}

// underTheRealAgentTheShellGuardHoldsEverySpelling runs a shell guard in
// one agent, the model asking in one answer for each spelling of a
// recursive delete, each of a folder of its own, and for a command that
// only mentions one, which writes a file: every folder survives, the
// guard's reason for each reaches the model or the user, and the mention
// runs.
func underTheRealAgentTheShellGuardHoldsEverySpelling(t *testing.T, run func(a *agentRun, t *testing.T, hook []string, env ...string) (string, *modelServer), g shellGuard) {
	a := newAgentRun(t)
	var folders []string
	var commands []string
	for i, s := range shellGuardSpellings {
		folder := filepath.Join(a.project, "precious-"+string(rune('a'+i)))
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(folder, "data.txt"), []byte("keep me\n"), 0o644)
		folders = append(folders, folder)
		commands = append(commands, s.command(folder))
	}
	mention := filepath.Join(a.project, "mention.txt")
	a.command, a.siblings = commands[0], append(commands[1:], "echo 'rm -rf "+a.victim+"' > "+mention)

	out, model := run(a, t, g.hook, g.env...)
	told := model.sent() + out
	for i, s := range shellGuardSpellings {
		if _, err := os.Stat(filepath.Join(folders[i], "data.txt")); err != nil {
			t.Errorf("%s: the folder is gone", commands[i])
		}
		if want := g.told(s, commands[i], folders[i]); !strings.Contains(told, want) && !strings.Contains(told, jsonText(want)) {
			t.Errorf("%s: neither the model nor the user was told %q", commands[i], want)
		}
	}
	if b, err := os.ReadFile(mention); err != nil || !strings.Contains(string(b), "rm -r") {
		t.Errorf("the command that only mentions rm -rf did not run: %v, %q", err, b)
	}
	// The bridge's server, under the agent, recorded each denial in the
	// user's audit log, where it is by default, in one chain.
	auditLog := filepath.Join(a.home, ".local", "state", "hookwire", "audit.jsonl")
	if r, err := audit.Verify(auditLog); err != nil || !r.OK() {
		t.Errorf("the audit log under the agent: %v %+v", err, r)
	}
	records, _ := os.ReadFile(auditLog)
	for i, s := range shellGuardSpellings {
		denied := func(line string) bool {
			return strings.Contains(line, `"host":"hookwire-bridge"`) && strings.Contains(line, `"action":"deny_tool"`) && strings.Contains(line, jsonText(g.told(s, commands[i], folders[i])))
		}
		if !slices.ContainsFunc(strings.Split(string(records), "\n"), denied) {
			t.Errorf("%s: no denial of it in the audit log:\n%s", commands[i], records)
		}
	}
	if t.Failed() {
		t.Logf("the agent printed:\n%s", out)
	}
}

// jsonText is s as it reads inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
