package install

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/hookwire/hookwire/core/bridge"
	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/wire"
)

// Finding is one thing doctor checked: a problem (with its fix) when the
// hook would not run as installed, or else what it found.
type Finding struct {
	Problem bool
	Text    string
	Fix     string
}

func ok(format string, args ...any) Finding { return Finding{Text: fmt.Sprintf(format, args...)} }

func problem(fix, format string, args ...any) Finding {
	return Finding{Problem: true, Text: fmt.Sprintf(format, args...), Fix: fix}
}

// Installed is one hook command in one of an agent's files, with the
// events it is named for.
type Installed struct {
	Scope    Scope
	File     string
	Command  string
	Events   []string
	Findings []Finding
}

// Report is what doctor found of one agent.
type Report struct {
	Agent *Agent
	// Files are the agent's configuration files that exist, by scope.
	Files map[Scope]string
	Hooks []Installed
	// Findings are about the agent as a whole: its switches, folder trust,
	// files it cannot read.
	Findings []Finding
}

// OK says whether every installed hook would run.
func (r *Report) OK() bool {
	for _, f := range r.Findings {
		if f.Problem {
			return false
		}
	}
	for _, h := range r.Hooks {
		for _, f := range h.Findings {
			if f.Problem {
				return false
			}
		}
	}
	return true
}

// Doctor reads each configuration file of the agent (the user's under
// home, the project's and the local one under dir), finds the hooks run
// through the bridge and checks each: that its bridge resolves, that the
// hook starts and passes conformance, that its timeouts are in the
// agent's unit and leave the bridge its deadline; and the agent's own
// switches that turn hooks off. checked holds what checking each hook
// found, by its command and variables, so that a hook installed into
// several agents starts once; nil checks each anew.
func Doctor(ctx context.Context, a *Agent, home, dir string, checked map[string][]Finding) *Report {
	r := &Report{Agent: a, Files: map[Scope]string{}}
	env := map[string]string{"HOME": home}
	if a.ProjectDir != "" {
		env[a.ProjectDir] = dir
	}
	docs := map[Scope]*document{}
	seen := map[string]bool{}
	for _, scope := range Scopes {
		file, err := a.Path(scope, home, dir)
		if err != nil || seen[file] { // the user's file is the project's when dir is home
			continue
		}
		seen[file] = true
		data, err := read(file)
		if err != nil || data == nil {
			if err != nil {
				r.Findings = append(r.Findings, problem("check its permissions", "%s cannot be read: %v", file, err))
			}
			continue
		}
		r.Files[scope] = file
		doc, err := decode(data, a.Comments)
		if err != nil {
			r.Findings = append(r.Findings, problem("fix the file: "+a.Name+" reads none of its settings while it does not parse", "%s: %v", file, err))
			continue
		}
		docs[scope] = doc
		r.Hooks = append(r.Hooks, a.installed(doc, scope, file, env)...)
	}
	r.Findings = append(r.Findings, a.switches(docs, r.Files, home, dir)...)
	if checked == nil {
		checked = map[string][]Finding{}
	}
	for i := range r.Hooks {
		h := &r.Hooks[i]
		b, _ := ParseCommand(h.Command, env)
		h.Findings = append(h.Findings, checkBridge(a, b))
		key := strings.Join(b.Hook, "\x00") + fmt.Sprint(b.Env)
		if _, done := checked[key]; !done {
			checked[key] = checkHook(ctx, b, dir)
		}
		h.Findings = append(h.Findings, checked[key]...)
		h.Findings = append(h.Findings, a.checkTimeouts(docs[h.Scope], h, b)...)
		if a.Trust != nil && h.Scope != User {
			h.Findings = append(h.Findings, a.checkTrust(docs[User], home, dir))
		}
	}
	return r
}

// installed are the bridge commands of a file, each with its events.
func (a *Agent) installed(doc *document, scope Scope, file string, env map[string]string) []Installed {
	var out []Installed
	noteRecorded(file) // a bridge of any name install wrote, by its record
	events, _ := hooksObject(doc.find("hooks"))
	for _, event := range events {
		for _, p := range a.entries(doc, event, func(cmd string) bool { _, ok := ParseCommand(cmd, env); return ok }) {
			i := slices.IndexFunc(out, func(h Installed) bool { return h.Command == p.command })
			if i < 0 {
				out = append(out, Installed{Scope: scope, File: file, Command: p.command})
				i = len(out) - 1
			}
			if !slices.Contains(out[i].Events, event) {
				out[i].Events = append(out[i].Events, event)
			}
		}
	}
	return out
}

func checkBridge(a *Agent, b Bridged) Finding {
	if b.Agent != a.Name {
		return problem(fmt.Sprintf("name %s in the command, or move the entry to %s's file", a.Name, b.Agent), "the command runs the bridge for %s, in a file of %s", b.Agent, a.Name)
	}
	path, err := exec.LookPath(b.Bridge)
	if err != nil {
		return problem("install hookwire-bridge there (it comes with hookwire), or run hookwire install again to write where it is now",
			"the bridge %s is not there: %v", b.Bridge, err)
	}
	return ok("the bridge is %s", path)
}

// checkHook starts the hook as the bridge would and runs the conformance
// suite on it.
func checkHook(ctx context.Context, b Bridged, dir string) []Finding {
	line := strings.Join(b.Hook, " ")
	cmd := wire.Command{Name: filepath.Base(b.Hook[0]), Argv: b.Hook, Dir: dir, Env: b.Env}
	report, err := conformance.Run(ctx, cmd, conformance.Options{})
	if err != nil {
		return []Finding{problem("run it by hand to see why: "+line, "the hook %s could not be checked: %v", line, err)}
	}
	if hs := report.Result("handshake"); hs.Status != conformance.Pass {
		return []Finding{problem("run it by hand to see why ("+line+"): check the program's path, its interpreter (a virtual environment's python by its path) and that it has the SDK",
			"the hook does not start: %s", hs.Reason)}
	}
	if failed := report.Failed(); len(failed) > 0 {
		return []Finding{problem("hookwire conformance -- "+line+" shows each failure", "the hook fails the conformance checks %s", strings.Join(failed, ", "))}
	}
	modes := make([]string, len(report.Modes))
	for i, m := range report.Modes {
		modes[i] = string(m)
	}
	return []Finding{ok("the hook %s starts and passes conformance (modes %s)", cmp.Or(report.Name, line), strings.Join(modes, ", "))}
}

// checkTimeouts reads the timeout of each of the hook's entries: in the
// agent's unit, and above the bridge's deadline, so that the agent never
// stops the bridge before it answers (the agent would then let a guarded
// call run).
func (a *Agent) checkTimeouts(doc *document, h *Installed, b Bridged) []Finding {
	if a.Timeout.Field == "" {
		return nil
	}
	deadline := cmp.Or(b.Deadline, bridge.Agents[a.Name].Deadline, bridge.DefaultDeadline)
	unit := map[time.Duration]string{time.Second: "seconds", time.Millisecond: "milliseconds"}[a.Timeout.Unit]
	fix := fmt.Sprintf("set %q to %d (%s), above the bridge's deadline of %s, as hookwire install writes it", a.Timeout.Field, a.timeoutValue(deadline+10*time.Second), unit, deadline)
	seen := map[string]bool{}
	var out []Finding
	add := func(f Finding) {
		if !seen[f.Text] {
			seen[f.Text] = true
			out = append(out, f)
		}
	}
	for _, event := range h.Events {
		for _, p := range a.entries(doc, event, func(cmd string) bool { return cmd == h.Command }) {
			v := p.value
			d := a.Timeout.Default
			if v.hasTimeout {
				d = time.Duration(v.timeout * float64(a.Timeout.Unit))
				if a.Timeout.MillisFrom > 0 && v.timeout >= a.Timeout.MillisFrom {
					d = time.Duration(v.timeout * float64(time.Millisecond))
				}
				switch {
				case a.Timeout.Unit == time.Second && a.Timeout.MillisFrom == 0 && v.timeout >= 1000:
					add(problem(fix, "%q is %v, in seconds (%s): a value in milliseconds?", a.Timeout.Field, v.timeout, d))
					continue
				case a.Timeout.Unit == time.Millisecond && v.timeout < 1000:
					add(problem(fix, "%q is %v, in milliseconds (%s): a value in seconds?", a.Timeout.Field, v.timeout, d))
					continue
				}
			}
			if d <= deadline {
				add(problem(fix, "the agent stops the hook after %s, before the bridge's deadline of %s: a guard would let the call run", d, deadline))
				continue
			}
			add(ok("timeout %s, above the bridge's deadline of %s", d, deadline))
		}
	}
	if a.Named {
		for _, p := range elements(a.setting(doc, a.Disabled)) {
			if name := text(&p); name != "" && (name == h.name(a, doc) || name == h.Command) {
				out = append(out, problem(fmt.Sprintf("take %q out of %s in %s", name, strings.Join(a.Disabled, "."), h.File), "the hook %q is disabled by name", name))
			}
		}
	}
	return out
}

// name is the hook's name in its first entry, where entries have one.
func (h *Installed) name(a *Agent, doc *document) string {
	for _, p := range a.entries(doc, h.Events[0], func(cmd string) bool { return cmd == h.Command }) {
		return p.value.name
	}
	return ""
}

// timeoutValue is d in the agent's unit, rounded up, as install writes it.
func (a *Agent) timeoutValue(d time.Duration) int64 {
	return int64((d + a.Timeout.Unit - 1) / a.Timeout.Unit)
}

// setting is the value at path in doc, or nil.
func (a *Agent) setting(doc *document, path []string) *hujsonValue {
	if doc == nil || len(path) == 0 {
		return nil
	}
	return doc.find(path...)
}

// switches are the agent's settings that turn every hook off, as the
// files set them: the last scope that sets one wins.
func (a *Agent) switches(docs map[Scope]*document, files map[Scope]string, home, dir string) []Finding {
	var out []Finding
	for _, s := range a.Switches {
		value, from := s.Default, ""
		for _, scope := range Scopes {
			v, set, file := false, false, files[scope]
			if s.Files == nil {
				v, set = boolean(a.setting(docs[scope], s.Path))
			} else if rel, ok := s.Files[scope]; ok {
				base := map[bool]string{true: home, false: dir}[scope == User]
				file = filepath.Join(base, filepath.FromSlash(rel))
				data, err := read(file)
				if err != nil {
					out = append(out, problem("check its permissions", "%s cannot be read: %v", file, err))
				}
				v, set = tomlSetting(data, s.Path)
			}
			if set {
				value, from = v, file
			}
		}
		name := strings.Join(s.Path, ".")
		switch {
		case value != s.Off:
			out = append(out, ok("hooks are on (%s is %v)", name, value))
		case from == "":
			out = append(out, problem(fmt.Sprintf("set %s to %v in the user's settings", name, !s.Off), "hooks are off: %s is %v by default", name, value))
		default:
			out = append(out, problem(fmt.Sprintf("set %s to %v in %s, or take it out", name, !s.Off, from), "hooks are off: %s sets %s to %v", from, name, value))
		}
	}
	return out
}

// tomlSetting is the boolean at path in a TOML file, if it sets one.
func tomlSetting(data []byte, path []string) (value, set bool) {
	if data == nil {
		return false, false
	}
	var v any = map[string]any{}
	if toml.Unmarshal(data, &v) != nil {
		return false, false
	}
	for _, name := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false, false
		}
		v = m[name]
	}
	value, set = v.(bool)
	return value, set
}

// checkTrust says whether dir is a trusted folder, where the agent loads
// project hooks only in one.
func (a *Agent) checkTrust(user *document, home, dir string) Finding {
	on, set := boolean(a.setting(user, a.Trust.Setting.Path))
	if !set {
		on = a.Trust.Setting.Default
	}
	if !on {
		return ok("folder trust is off: project hooks load")
	}
	file := filepath.Join(home, filepath.FromSlash(a.Trust.File))
	fix := fmt.Sprintf("trust the folder when %s asks, or add \"%s\": \"TRUST_FOLDER\" to %s", a.Name, dir, file)
	data, err := read(file)
	if err != nil {
		return problem(fix, "%s cannot be read: %v", file, err)
	}
	level, longest := "", -1
	if doc, err := decode(data, true); err == nil {
		rules, _ := hooksObject(&doc.root)
		for _, rule := range rules {
			lvl := text(doc.find(rule))
			base := rule
			if lvl == "TRUST_PARENT" {
				base = filepath.Dir(rule)
			}
			if (dir == base || strings.HasPrefix(dir, strings.TrimSuffix(base, "/")+"/")) && len(rule) > longest {
				level, longest = lvl, len(rule)
			}
		}
	}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		return ok("the folder is trusted (%s)", file)
	case "DO_NOT_TRUST":
		return problem(fix, "the folder is not trusted (%s says DO_NOT_TRUST): %s loads none of its project hooks", file, a.Name)
	}
	return problem(fix, "the folder is not trusted yet: %s loads no project hooks until it is", a.Name)
}

// Write prints the report for people: each file and hook with its checks,
// each problem with its fix, and a last line that says whether the hooks
// would run.
func (r *Report) Write(w io.Writer) {
	line := func(indent string, f Finding) {
		if f.Problem {
			fmt.Fprintf(w, "%sPROBLEM %s\n%s        fix: %s\n", indent, f.Text, indent, f.Fix)
			return
		}
		fmt.Fprintf(w, "%sok      %s\n", indent, f.Text)
	}
	fmt.Fprintf(w, "%s\n", r.Agent.Name)
	for _, scope := range Scopes {
		if f, ok := r.Files[scope]; ok {
			fmt.Fprintf(w, "  %-7s  %s\n", scope, f)
		}
	}
	for _, f := range r.Findings {
		line("  ", f)
	}
	for _, h := range r.Hooks {
		fmt.Fprintf(w, "  hook in %s (%s): %s\n    events: %s\n", h.File, h.Scope, h.Command, strings.Join(h.Events, ", "))
		for _, f := range h.Findings {
			line("    ", f)
		}
	}
	switch {
	case len(r.Hooks) == 0:
		fmt.Fprintf(w, "  no hookwire hook installed: hookwire install %s -- COMMAND\n", r.Agent.Name)
	case r.OK():
		fmt.Fprintf(w, "  ready: %d hook(s) would run\n", len(r.Hooks))
	default:
		fmt.Fprintf(w, "  NOT READY: fix each problem above\n")
	}
}

// Home is the user's home folder, from $HOME first, so that tests and
// users can point doctor and install elsewhere.
func Home() (string, error) {
	if h := os.Getenv("HOME"); h != "" {
		return h, nil
	}
	return os.UserHomeDir()
}
