package examples

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tools are the tool records of a transcript, as "tool outcome by: result or reason".
func tools(records []record) []string {
	var out []string
	for _, r := range ofType(records, "tool") {
		s := r.Tool + " " + r.Outcome
		if r.By != "" {
			s += " by " + r.By
		}
		if r.Reason != "" {
			s += ": " + r.Reason
		} else if r.Result != nil {
			s += ": " + r.Result.ForLLM
		}
		out = append(out, s)
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestApprovalGateDeniesDangerousCommandsAndApprovesTheRest(t *testing.T) {
	records := play(t, filepath.Join("approval-gate", "python", "hooks.json"), filepath.Join("approval-gate", "scenario.json"), nil)
	equal(t, "tool calls", tools(records), []string{
		"shell ran: would run: ls -la build 2>/dev/null",
		"shell unapproved by approval_gate: a recursive forced delete (rm -rf) is not allowed: rm -rf build",
		"shell unapproved by approval_gate: formatting a file system (mkfs) is not allowed: mkfs.ext4 /dev/sdb1",
		"shell unapproved by approval_gate: a raw copy with dd (dd if=) is not allowed: dd if=/dev/zero of=/dev/sdb bs=1M",
		"shell unapproved by approval_gate: a write to a device (> /dev/...) is not allowed: echo wiped > /dev/sdb",
	})
	var approvals []string
	for _, r := range ofType(records, "hook") {
		approvals = append(approvals, fmt.Sprintf("%s %s approved=%v", r.Hook, r.Method, r.Approved != nil && *r.Approved))
	}
	equal(t, "hook calls", approvals, []string{
		"approval_gate hook.approve_tool approved=true",
		"approval_gate hook.approve_tool approved=false", "approval_gate hook.approve_tool approved=false",
		"approval_gate hook.approve_tool approved=false", "approval_gate hook.approve_tool approved=false",
	})
}

func TestRateLimiterDeniesTheCallOverTheLimit(t *testing.T) {
	records := play(t, filepath.Join("rate-limiter", "python", "hooks.json"), filepath.Join("rate-limiter", "scenario.json"), nil)
	equal(t, "tool calls", tools(records), []string{
		"echo_text ran: hello 1",
		"echo_text ran: hello 2",
		"echo_text denied by rate_limiter: rate limit: echo_text may be called 2 times per session, and this session has used them all; do without it",
	})
}

func TestAuditLogAppendsARecordPerEvent(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(log, []byte(`{"kind":"an earlier line, kept"}`+"\n"), 0o644)
	records := play(t, filepath.Join("audit-log", "typescript", "hooks.json"), filepath.Join("audit-log", "scenario.json"),
		map[string]string{"AUDIT_LOG": log})

	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var audit []map[string]any
	for s := bufio.NewScanner(f); s.Scan(); {
		var rec map[string]any
		if err := json.Unmarshal(s.Bytes(), &rec); err != nil {
			t.Fatalf("audit line %q: %v", s.Text(), err)
		}
		audit = append(audit, rec)
	}
	if len(audit) == 0 || audit[0]["kind"] != "an earlier line, kept" {
		t.Fatalf("the log was not appended to: %v", audit)
	}
	audit = audit[1:]
	var kinds, want []string
	for _, r := range ofType(records, "event") {
		want = append(want, r.Kind)
	}
	for _, rec := range audit {
		kinds = append(kinds, rec["kind"].(string))
		if time, _ := rec["time"].(string); !strings.HasPrefix(time, "20") {
			t.Errorf("record without a time: %v", rec)
		}
	}
	equal(t, "audited kinds (one per event, in order)", kinds, want)

	var calls []string
	for _, rec := range audit {
		if rec["kind"] == "agent.tool.exec_start" {
			args, _ := json.Marshal(rec["arguments"])
			calls = append(calls, rec["tool"].(string)+" "+string(args))
		}
	}
	equal(t, "audited tool calls", calls, []string{`read_file {"path":"notes.txt"}`, `echo_text {"text":"Ship on Friday."}`})
}

func TestSecretRedactorMasksSecretsInToolResults(t *testing.T) {
	records := play(t, filepath.Join("secret-redactor", "go", "hooks.json"), filepath.Join("secret-redactor", "scenario.json"), nil)
	var actions []string
	for _, r := range ofType(records, "hook") {
		actions = append(actions, r.Method+" "+r.Tool+" "+r.Action)
	}
	equal(t, "hook calls", actions, []string{"hook.after_tool read_file continue", "hook.after_tool read_file modify", "hook.after_tool read_file modify"})

	readme, _ := os.ReadFile(filepath.Join("secret-redactor", "workspace", "README.txt"))
	equal(t, "tool calls", tools(records), []string{
		"read_file ran: " + string(readme),
		"read_file ran: # Deployment settings. Every secret below is a made-up example.\n" +
			"APP_NAME=weather-bot\nMAX_TOKENS=4096\nSECRET_KEY=***\nDATABASE_PASSWORD=***\nAWS_ACCESS_KEY_ID=AKIA***\nGITHUB_TOKEN=***\n",
		"read_file ran: $ curl -H \"Authorization: Bearer ***\" https://api.example.com/deploy\n" +
			"{\"status\": \"ok\", \"session\": \"eyJ***\"}\nnotify: posted to Slack with xoxb-***\ndone in 3.2s\n",
	})
}

func TestResultCacheAnswersARepeatedCallFromItsCache(t *testing.T) {
	records := play(t, filepath.Join("result-cache", "typescript", "hooks.json"), filepath.Join("result-cache", "scenario.json"), nil)
	equal(t, "tool calls", tools(records), []string{
		"read_file ran: Ship on Friday.\n",
		"read_file answered by result_cache: answered from the cache",
		// echo_text is not in CACHE_TOOLS: it runs every time.
		"echo_text ran: Ship on Friday.",
		"echo_text ran: Ship on Friday.",
	})
	if r := ofType(records, "tool")[1].Result; r == nil || r.ForLLM != "Ship on Friday.\n" || r.IsError {
		t.Errorf("the cached answer is %+v, want what read_file returned", r)
	}
}

// Older hosts send hook.event, with PascalCase keys and legacy kinds: the
// audit log records it as the runtime event it stands for.
func TestAuditLogRecordsLegacyEvents(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	hook := exec.Command("node", "dist/main.js")
	hook.Dir = filepath.Join("audit-log", "typescript")
	hook.Env = environ(map[string]string{"AUDIT_LOG": log})
	hook.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"name":"audit_log","version":1,"modes":["observe"]}}
{"jsonrpc":"2.0","method":"hook.event","params":{"Kind":"tool_exec_start","Meta":{"AgentID":"agent-1","TurnID":"turn-1"},"Payload":{"Tool":"echo_text","Arguments":{"text":"hello"}}}}
`)
	if out, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if time, _ := rec["time"].(string); time == "" {
		t.Errorf("no time: %s", b)
	}
	delete(rec, "time")
	got, _ := json.Marshal(rec)
	if want := `{"arguments":{"text":"hello"},"kind":"agent.tool.exec_start","tool":"echo_text"}`; string(got) != want {
		t.Errorf("recorded %s, want %s", got, want)
	}
}

// The same file blocks rm -rf / under `hookwire run --host` of every agent
// of the bridge, as each agent would take its replies.
func TestTheShellGuardBlocksRmRfUnderEveryAgentsHost(t *testing.T) {
	_, cfg := config(t, filepath.Join("shell-guard", "python", "hooks.json"))
	for _, agent := range allAgents {
		cmd := exec.Command(cli, "run", "--host", agent, "--hooks", cfg, filepath.Join("shell-guard", "scenario.json"))
		cmd.Env = environ(nil)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), `denied by hook shell_guard: tool shell was denied by hook shell_guard: dangerous command blocked: rm -rf /`) {
			t.Errorf("--host %s: %v\n%s", agent, err, out)
		}
	}
}
