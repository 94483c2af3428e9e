package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/hookwire/hookwire/sdk-go"
)

const shellGuardPolicy = "../../examples/policy/shell-guard.jsonc"

func load(t *testing.T, path string) *Policy {
	t.Helper()
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func shellCall(p *Policy, command string) Decision {
	args := map[string]any{"command": command}
	return p.Decide("Bash", args, sdk.BeforeToolParams{Tool: "Bash", Arguments: args}.CanonicalTool())
}

// TestTheShellGuardPolicyDecidesEveryCaseAsTheShellGuardDoes: the shell
// guard written as a policy of six rules denies every command the coded
// guard denies or refuses, and lets through every one it lets through.
func TestTheShellGuardPolicyDecidesEveryCaseAsTheShellGuardDoes(t *testing.T) {
	p := load(t, shellGuardPolicy)
	data, err := os.ReadFile("../../examples/shell-guard/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Command, Expect, Note string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 {
		t.Fatalf("only %d cases read", len(cases))
	}
	for _, c := range cases {
		want := Deny
		if c.Expect == "allow" {
			want = Continue
		}
		if d := shellCall(p, c.Command); d.Effect != want {
			t.Errorf("%q (%s): %s (%s), want %s", c.Command, c.Note, d.Effect, d.Message, want)
		}
	}
}

func TestThePoliciesOwnTestsPass(t *testing.T) {
	for _, r := range load(t, shellGuardPolicy).Test() {
		if r.Failure != "" {
			t.Errorf("%s (%s): %s", r.Case.Name, r.Case.At, r.Failure)
		}
	}
}

func parse(t *testing.T, src string) (*Policy, error) {
	t.Helper()
	return Parse("p.jsonc", []byte(src))
}

// TestABadRuleIsRefusedAtLoadWithItsPlace: every fault of a policy file is
// refused when it is loaded, at FILE:LINE:COL, the column that of the
// fault inside the expression where the expression has one.
func TestABadRuleIsRefusedAtLoadWithItsPlace(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{\"rules\": [\n  {\"when\": \"kind == 'shell' &&\", \"deny\": \"x\"}]}", "p.jsonc:2:31: Syntax error"},
		{"{\"rules\": [\n  {\"when\": \"kin == 'shell'\", \"deny\": \"x\"}]}", "p.jsonc:2:13: undeclared reference to 'kin'"},
		{"{\"rules\": [\n  {\"when\": \"command.size()\", \"deny\": \"x\"}]}", "p.jsonc:2:12: \"when\" gives int, where bool is needed"},
		{"{\"rules\": [\n  {\"when\": \"\\\"a\\\" == kin\", \"deny\": \"x\"}]}", "p.jsonc:2:22: undeclared reference to 'kin'"},
		{"{\"rules\": [{\"when\": \"true\"}]}", "p.jsonc:1:12: rule 1 must say what it does"},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"x\", \"allow\": \"y\"}]}", "must say what it does, once"},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"\"}]}", "p.jsonc:1:37: say why"},
		{"{\"rules\": [{\"when\": \"true\", \"rewrite\": {\"cmd\": \"'x'\"}}]}", "p.jsonc:1:41: unknown key \"cmd\""},
		{"{\"rules\": [{\"when\": \"true\", \"rewrite\": {\"command\": \"1\"}}]}", "\"command\" gives int, where string is needed"},
		{"{\"rules\": [{\"deny\": \"x\"}]}", "has no \"when\""},
		{"{\"rule\": []}", "p.jsonc:1:2: unknown key \"rule\""},
		{"{}", "no \"rules\""},
		{"[]", "p.jsonc:1:1: a policy is an object"},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"x\"}], \"tests\": [{\"tool\": \"Bash\", \"expect\": \"block\"}]}", "\"expect\" is one of"},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"x\"}], \"tests\": [{\"tool\": \"Bash\", \"expect\": \"deny\", \"rule\": \"nope\"}]}", "names the rule \"nope\""},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"x\", \"when\": \"false\"}]}", "the key \"when\" is there twice"},
		{strings.Repeat("[", 2000), "nest deeper than 1000"},
		{"{\"rules\": [\n  {\"when\": \"true\", \"deny\": \"blocked: ${comand}\"}]}", "p.jsonc:2:40: undeclared reference to 'comand'"},
		{"{\"rules\": [{\"when\": \"true\", \"deny\": \"blocked: ${command\"}]}", "p.jsonc:1:47: a ${ with no } to end it"},
	} {
		_, err := parse(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.src, err, c.want)
		}
	}
}

func TestEachEffect(t *testing.T) {
	p, err := parse(t, `{"rules": [
		{"name": "no prod", "when": "kind == 'fetch' && url.contains('prod.')", "deny": "not production"},
		{"name": "https", "when": "kind == 'fetch' && url.startsWith('http://')", "rewrite": {"url": "'https://' + url.substring(7)"}},
		{"name": "git push", "when": "commands.exists(c, c.name == 'git' && c.args.size() > 1 && c.args[1] == 'push')", "ask": "pushing is yours to decide"},
		{"name": "reads", "when": "kind == 'read'", "allow": ""},
		{"name": "missing key", "when": "arguments.nope == 1", "deny": "unreachable"}
	]}`)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any) Decision {
		return p.Decide(tool, args, sdk.BeforeToolParams{Tool: tool, Arguments: args}.CanonicalTool())
	}
	if d := call("WebFetch", map[string]any{"url": "https://prod.example.com"}); d.Effect != Deny || d.Message != "not production" {
		t.Errorf("deny: %+v", d)
	}
	if d := call("WebFetch", map[string]any{"url": "http://example.com"}); d.Effect != Rewrite || d.Rewrite.URL == nil || *d.Rewrite.URL != "https://example.com" {
		t.Errorf("rewrite: %+v", d)
	}
	if d := call("Bash", map[string]any{"command": "cd repo && git push origin main"}); d.Effect != Ask {
		t.Errorf("ask: %+v", d)
	}
	if d := call("Read", map[string]any{"file_path": "x"}); d.Effect != Allow {
		t.Errorf("allow: %+v", d)
	}
	// A rule that fails on the call denies it, naming itself.
	if d := call("Write", map[string]any{"file_path": "x"}); d.Effect != Deny || !strings.Contains(d.Message, "missing key (p.jsonc:6:3) could not judge this call") {
		t.Errorf("a failing rule: %+v", d)
	}
}

func TestAMessageWritesInWhatItsExpressionsGive(t *testing.T) {
	p, err := parse(t, `{"rules": [{"when": "kind == 'shell'", "deny": "no ${commands.map(c, c.name).join(', ')} in ${ {'a': tool}['a'] }, ${size(command)} bytes"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if d := shellCall(p, "ls | wc -l"); d.Message != "no ls, wc in Bash, 10 bytes" {
		t.Errorf("message: %q", d.Message)
	}
	long, _ := parse(t, `{"rules": [{"when": "true", "deny": "blocked: ${command}"}]}`)
	if d := shellCall(long, strings.Repeat("x", 5000)); len(d.Message) > 320 || !strings.HasSuffix(d.Message, "...") {
		t.Errorf("a long command in a message: %d bytes", len(d.Message))
	}
}

func TestACostlyRuleDeniesRatherThanRunsOn(t *testing.T) {
	p, err := parse(t, `{"rules": [{"name": "slow", "when": "commands.all(a, commands.all(b, commands.all(c, a.name != 'x')))", "deny": "never"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	d := shellCall(p, strings.Repeat("true; ", 300))
	if d.Effect != Deny || !strings.Contains(d.Message, "could not judge") {
		t.Errorf("a rule over its cost: %+v", d)
	}
}

func TestAPolicyFileOverItsSizeIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonc")
	os.WriteFile(path, []byte(strings.Repeat(" ", MaxFileSize+1)), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("a file of %d bytes: %v", MaxFileSize+1, err)
	}
}
