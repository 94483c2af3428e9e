package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/agents"
)

// An agent that reads its events as the file's own members (OpenHands'
// hooks.json) gets the hook there, beside the user's, when the file has
// no "hooks"; inside "hooks" when it has (then the agent reads nothing
// else); and a new file holds the events alone. Uninstall gives each file
// back.
func TestInstallWritesWhereTheAgentReadsTheEvents(t *testing.T) {
	a := Agents["openhands"]
	bare, err := os.ReadFile(filepath.Join("testdata", "openhands.json"))
	if err != nil {
		t.Fatal(err)
	}
	events := Events(agents.ByName("openhands"), guardModes)
	for name, tc := range map[string]struct {
		before  []byte
		wrapped bool
	}{
		"top level": {bare, false},
		"wrapped":   {[]byte(`{"hooks": {"PreToolUse": [{"matcher": "terminal", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}` + "\n"), true},
		"new":       {nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			ch, err := install(a, "hooks.json", tc.before, testHook("openhands"), events)
			if err != nil {
				t.Fatal(err)
			}
			after := standard(t, ch.After)
			if _, has := after["hooks"]; has != tc.wrapped {
				t.Fatalf("a \"hooks\" member: %v, want %v\n%s", has, tc.wrapped, ch.After)
			}
			for _, event := range events {
				got := commands(a, after, event)
				if len(got) == 0 || got[len(got)-1] != testHook("openhands").Command {
					t.Errorf("%s: the hook is not the event's last command: %v\n%s", event, got, ch.After)
				}
			}
			if !tc.wrapped && tc.before != nil && len(commands(a, after, "PreToolUse")) != 2 {
				t.Errorf("the user's PreToolUse hook is gone:\n%s", ch.After)
			}
			again, err := install(a, "hooks.json", ch.After, testHook("openhands"), events)
			if err != nil || string(again.After) != string(ch.After) {
				t.Errorf("a second install changed the file (%v):\n%s", err, again.Diff())
			}
			back, err := uninstall(a, "hooks.json", ch.After, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.before == nil && back.After == nil {
				return // nothing but what install wrote: the file goes
			}
			if string(back.After) != string(tc.before) {
				t.Errorf("uninstall did not give the file back:\n%s", back.Diff())
			}
		})
	}
}

// OpenHands reads the project's hooks.json where there is one, and then
// not the user's: doctor says so of a hook in the user's file, and
// install's caveats too.
func TestDoctorSaysTheProjectsFileShadowsTheUsers(t *testing.T) {
	a := Agents["openhands"]
	home, dir := t.TempDir(), t.TempDir()
	user, _ := a.Path(User, home, dir)
	ch, err := Install(a, user, testHook("openhands"), Events(agents.ByName("openhands"), guardModes))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, user, string(ch.After))
	const shadowed = "and then not this file: a hook here does not run in this project"
	if report := texts(Doctor(context.Background(), a, home, dir, DoctorOptions{})); strings.Contains(report, shadowed) {
		t.Errorf("no project file, and doctor says it shadows the user's:\n%s", report)
	}
	writeFile(t, filepath.Join(dir, ".openhands", "hooks.json"), `{"Stop": []}`)
	if report := texts(Doctor(context.Background(), a, home, dir, DoctorOptions{})); !strings.Contains(report, shadowed) || !strings.Contains(report, "--scope project") {
		t.Errorf("doctor does not say the project's file shadows the user's:\n%s", report)
	}
	if caveats := strings.Join(Caveats(a, User, nil), "\n"); !strings.Contains(caveats, "install it with --scope project there too") {
		t.Errorf("install's caveats do not say it: %q", caveats)
	}
}
