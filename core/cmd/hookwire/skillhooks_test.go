package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const exampleSkills = "../../../examples/skill-prompts/skills"

func TestSkillHooksCheckListsTheHooks(t *testing.T) {
	code, out, errOut := hookwire(t, "", "skill-hooks", "--check", exampleSkills)
	want := `notes/reply-language: after_user_input, system, persistent
notes/plan-briefly: before_planning, system, not persistent
notes/read-first: before_first_agent, system, not persistent
notes/one-step: before_each_agent, user, not persistent
notes/truncated-content-hint: after_tool_call (read_file), system, not persistent
`
	if code != exitOK || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, want)
	}
}

func TestSkillHooksFaultsGetOneLine(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "notes", "hooks"), 0o755)
	os.WriteFile(filepath.Join(dir, "notes", "hooks", "hooks.json"), []byte(`{"hooks": [
		{"name": "hint", "file": "hint.md", "timing": "before_each_agent", "role": "system", "persistent": false, "tool_filter": ["read_file"]}]}`), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"skill-hooks"}, exitUsage, "hookwire skill-hooks: need exactly one skills folder (see hookwire skill-hooks --help)\n"},
		{[]string{"skill-hooks", dir}, exitFail, "hookwire skill-hooks: skill notes, hook hint, tool_filter: only after_tool_call hooks take one (this one's timing is before_each_agent)\n"},
		{[]string{"skill-hooks", "--skills", "notes,todo", exampleSkills}, exitFail, "hookwire skill-hooks: skill todo: no such skill folder in " + exampleSkills + "\n"},
	} {
		code, out, errOut := hookwire(t, "", tc.args...)
		if code != tc.code || out != "" || errOut != tc.want {
			t.Errorf("hookwire %s: exit %d, stdout %q, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, out, errOut, tc.code, tc.want)
		}
	}
}

// The command serves the protocol on its stdin and stdout: here a hello
// and the first LLM call of a turn, as a host sends them.
func TestSkillHooksServesTheProtocol(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"skill_hooks","version":1,"modes":["llm","tool"]}}
{"jsonrpc":"2.0","id":2,"method":"hook.before_llm","params":{"meta":{"SessionKey":"s","TurnID":"t"},"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"read_file"}}],"x_host":{"k":1}}}
`
	code, out, errOut := hookwire(t, in, "skill-hooks", exampleSkills)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	type reply struct {
		ID     int
		Result struct {
			Action  string
			Request struct {
				Messages []struct{ Role, Content string }
				XHost    json.RawMessage `json:"x_host"`
			}
		}
	}
	// Replies come in any order: find each by its id.
	replies := map[int]reply{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		replies[r.ID] = r
	}
	_, helloAnswered := replies[1]
	if len(replies) != 2 || !helloAnswered || replies[2].Result.Action != "modify" {
		t.Fatalf("want the hello's reply and a modify for id 2:\n%s", out)
	}
	var seen []string
	for _, m := range replies[2].Result.Request.Messages {
		seen = append(seen, m.Role+": "+m.Content)
	}
	want := []string{
		"user: hi",
		"system: Answer in the language the user writes in.",
		"user: Take one step now: call one tool, or answer if you have what you need.",
		"system: Read the files the user names before you answer; never guess what they say.",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the LLM would see\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	// A modify carries the whole request: members the hook does not know too.
	if got := string(replies[2].Result.Request.XHost); got != `{"k":1}` {
		t.Errorf("the host's own member x_host came back as %s, want {\"k\":1}", got)
	}
}

func TestSkillHooksPassesTheConformanceSuite(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hookwire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building hookwire: %v\n%s", err, out)
	}
	code, out, errOut := hookwire(t, "", "conformance", "--", bin, "skill-hooks", exampleSkills)
	if code != exitOK || !strings.HasSuffix(out, "10 checks: 10 passed, 0 failed\n") {
		t.Errorf("exit %d, stderr %q\n%s", code, errOut, out)
	}
}
