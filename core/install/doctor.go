package install

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/conformance"
	"github.com/hookwire/hookwire/core/host"
	"github.com/hookwire/hookwire/core/wire"
)

// Finding is one thing doctor checked: a problem (with its fix) when the
// hook would not run as installed, a note of what doctor did not check or
// what the agent does not honour (never a problem), or else what it found.
type Finding struct {
	Problem bool
	Note    bool
	Text    string
	Fix     string
}

func ok(format string, args ...any) Finding { return Finding{Text: fmt.Sprintf(format, args...)} }

func note(format string, args ...any) Finding {
	return Finding{Note: true, Text: fmt.Sprintf(format, args...)}
}

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
	// Started is true when doctor started the hook to check it.
	Started bool
	// server is the command line hookwire's plugin starts, for an agent
	// of agents.Plugin.
	server []string
}

// Report is what doctor found of one agent.
type Report struct {
	Agent *Agent
	// Files are the agent's configuration files that exist, by scope.
	Files map[Scope]string
	// Looked are the hooks files read or looked for, in the order of
	// Scopes, whether they exist or not.
	Looked []string
	Hooks  []Installed
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

// DoctorOptions say what Doctor may do beyond reading files.
type DoctorOptions struct {
	// StartHooks lets doctor start each hook, as the bridge would, to run
	// the conformance suite on it; only where the agent itself would run
	// it. Without it doctor runs nothing a configuration file names: the
	// files may be a cloned repository's.
	StartHooks bool
	// Checked holds what checking each hook found, by its command and
	// variables, so that a hook in several agents starts once (nil: anew).
	Checked map[string]HookCheck
}

// HookTimeout bounds one hook's check: the conformance suite's steps are
// bounded each, and this bounds them together, so that doctor never hangs
// on a hook.
const HookTimeout = 60 * time.Second

// MaxHookOutput bounds what a started hook may write on stdout during its
// check: the suite's replies are a few kilobytes, and a hook that writes
// without end must not fill the memory.
const MaxHookOutput = 16 << 20

// Doctor reads each configuration file of the agent (the user's under
// home, the project's and the local one under dir), finds the hooks run
// through the bridge and checks each: that its bridge resolves, that the
// agent loads the hook's file (folder and project trust, the ways of
// running that read the scope), that its timeouts are in the agent's unit
// and leave the bridge its deadline; and the agent's own switches that
// turn hooks off. With opts.StartHooks, it also starts each hook the agent
// would run and runs the conformance suite on it.
func Doctor(ctx context.Context, a *Agent, home, dir string, opts DoctorOptions) *Report {
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
		r.Looked = append(r.Looked, file)
		if !a.Layout.Entries() {
			hooks, findings := a.installedScripts(scope, file)
			if a.Layout == Plugin {
				hooks, findings = a.installedPlugin(scope, file)
			}
			r.Hooks, r.Findings = append(r.Hooks, hooks...), append(r.Findings, findings...)
			if len(hooks)+len(findings) > 0 {
				r.Files[scope] = file
			}
			continue
		}
		data, err := read(file)
		if err != nil || data == nil {
			if err != nil {
				r.Findings = append(r.Findings, problem("check its permissions", "%s cannot be read: %v", file, err))
			}
			continue
		}
		r.Files[scope] = file
		doc, err := a.read(data)
		if err != nil {
			r.Findings = append(r.Findings, problem("fix the file: "+a.Name+" reads none of its settings while it does not parse", "%s: %v", file, err))
			continue
		}
		docs[scope] = doc
		r.Hooks = append(r.Hooks, a.installed(doc, scope, file, env)...)
		r.Findings = append(r.Findings, a.mcpToolGuards(doc, file)...)
	}
	r.Findings = append(r.Findings, a.switches(docs, r.Files, home, dir)...)
	r.Findings = append(r.Findings, a.bypass()...)
	checked := opts.Checked
	if checked == nil {
		checked = map[string]HookCheck{}
	}
	loads := map[Scope][]Finding{} // whether the agent loads a scope's hooks, once per scope
	for i := range r.Hooks {
		h := &r.Hooks[i]
		b, found, notRun := a.checkRunner(h, docs, env, home, dir)
		h.Findings = append(h.Findings, found...)
		if _, done := loads[h.Scope]; !done {
			loads[h.Scope] = a.loads(h.Scope, docs[User], home, dir)
		}
		h.Findings = append(h.Findings, loads[h.Scope]...)
		h.Findings = append(h.Findings, a.checkTimeouts(docs[h.Scope], h, b)...)
		h.Findings = append(h.Findings, a.checkStrict(docs[h.Scope], h)...)
		line := ShellLine(b.Hook)
		skipped := func(why string) {
			h.Findings = append(h.Findings, note("the hook was not started: %s", why))
		}
		switch {
		case !opts.StartHooks:
			// A configuration file under dir may be a cloned repository's:
			// starting what it names would run its code.
			h.Findings = append(h.Findings, note("the hook was not started (doctor runs no command a configuration names unless asked): check it with hookwire doctor --start-hooks %s, or hookwire conformance -- %s", a.Name, line))
		case notRun != "":
			skipped(notRun + ", so " + a.Name + " would not run it either")
		case slices.ContainsFunc(loads[h.Scope], func(f Finding) bool { return f.Problem }):
			skipped(a.Name + " does not load this file's hooks here (see above)")
		default:
			key := strings.Join(b.Hook, "\x00") + fmt.Sprint(b.Env)
			if _, done := checked[key]; !done {
				checked[key] = checkHook(ctx, a, b, dir)
			}
			h.Findings = append(h.Findings, checked[key].Findings...)
			h.Findings = append(h.Findings, a.checkEvents(h, checked[key].Modes)...)
			h.Started = true
		}
	}
	return r
}

// installed are the bridge commands of a file, each with its events, and
// the warm form's mcp_tool hooks as one, whose command is warmMarker.
func (a *Agent) installed(doc *document, scope Scope, file string, env map[string]string) []Installed {
	var out []Installed
	noteRecorded(file) // a bridge of any name install wrote, by its record
	for _, event := range a.hookEvents(doc) {
		for _, p := range a.entries(doc, event, func(cmd string) bool { _, ok := ParseCommand(cmd, env); return ok || cmd == warmMarker }) {
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

// checkBridge finds the bridge the command names, as the agent's shell
// would from the project's folder, and says whether it is there.
func checkBridge(a *Agent, b Bridged, dir string) (Finding, bool) {
	if b.Agent != a.Name {
		return problem(fmt.Sprintf("name %s in the command, or move the entry to %s's file", a.Name, b.Agent), "the command runs the bridge for %s, in a file of %s", b.Agent, a.Name), false
	}
	name := b.Bridge
	if strings.Contains(name, "/") && !filepath.IsAbs(name) {
		name = filepath.Join(dir, name) // the agent runs the command in the project's folder
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return problem("install hookwire-bridge there (it comes with hookwire), or run hookwire install again to write where it is now",
			"the bridge %s is not there: %v", b.Bridge, err), false
	}
	return ok("the bridge is %s", path), true
}

// checkHook starts the hook as the bridge would and runs the conformance
// suite on it, as the agent's host: what the agent would not honour of
// its replies (tools added in before_llm, respond, ...) is a note. The
// run is bounded in time (HookTimeout) and in what the hook may write.
func checkHook(ctx context.Context, a *Agent, b Bridged, dir string) HookCheck {
	line := ShellLine(b.Hook)
	ctx, cancel := context.WithTimeout(ctx, HookTimeout)
	defer cancel()
	h, _ := host.Parse(a.Name)
	cmd := wire.Command{Name: filepath.Base(b.Hook[0]), Argv: b.Hook, Dir: dir, Env: b.Env}
	report, err := conformance.Run(ctx, cmd, conformance.Options{Host: h, MaxOutput: MaxHookOutput})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("its checks took more than %s", HookTimeout)
		}
		return HookCheck{Findings: []Finding{problem("run it by hand to see why: "+line, "the hook %s could not be checked: %v", line, err)}}
	}
	if hs := report.Result("handshake"); hs.Status != conformance.Pass {
		return HookCheck{Findings: []Finding{problem("run it by hand to see why ("+line+"): check the program's path, its interpreter (a virtual environment's python by its path) and that it has the SDK",
			"the hook does not start: %s", hs.Reason)}}
	}
	var out []Finding
	if failed := report.Failed(); len(failed) > 0 {
		out = append(out, problem("hookwire conformance -- "+line+" shows each failure", "the hook fails the conformance checks %s", strings.Join(failed, ", ")))
	} else {
		modes := make([]string, len(report.Modes))
		for i, m := range report.Modes {
			modes[i] = string(m)
		}
		out = append(out, ok("the hook %s starts and passes conformance (modes %s)", cmp.Or(report.Name, line), strings.Join(modes, ", ")))
	}
	for _, w := range report.Warnings {
		out = append(out, note("%s does not honour this: %s", a.Name, w))
	}
	return HookCheck{Findings: out, Modes: report.Modes}
}

// ShellLine is a command's words quoted for sh, to be run by hand.
func ShellLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quote(w)
	}
	return strings.Join(words, " ")
}

// checkTimeouts reads the timeout of each of the hook's entries: in the
// agent's unit, and above the bridge's deadline, so that the agent never
// stops the bridge before it answers (the agent would then let a guarded
// call run).
func (a *Agent) checkTimeouts(doc *document, h *Installed, b Bridged) []Finding {
	if a.Timeout.Field == "" {
		return nil
	}
	deadline := cmp.Or(b.Deadline, a.facts().EventDeadline())
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
// bypass says what the agent's way of running without hooks leaves
// unguarded: the variable set where doctor runs is a problem (every run
// then loads no hook); the flag, a note.
func (a *Agent) bypass() []Finding {
	b := a.Bypass
	if b == nil {
		return nil
	}
	if v := os.Getenv(b.Env); v != "" && v != "0" && v != "false" {
		return []Finding{problem("unset "+b.Env+" where "+a.Name+" runs", "%s is set (%s): %s loads no plugin, so no hook of hookwire's runs", b.Env, v, a.Name)}
	}
	return []Finding{note("%s %s (or %s set) runs with no plugin: no hook of hookwire's runs then", a.Name, b.Flag, b.Env)}
}

func (a *Agent) switches(docs map[Scope]*document, files map[Scope]string, home, dir string) []Finding {
	var out []Finding
	reported := map[string]bool{} // a file that holds two switches is one problem
	for _, s := range a.Switches {
		value, from, unparsed := s.Default, "", false
		for _, scope := range Scopes {
			v, set, file := false, false, files[scope]
			if s.Files == nil {
				v, set = boolean(a.setting(docs[scope], s.Path))
			} else if rel, ok := s.Files[scope]; ok {
				base := map[bool]string{true: home, false: dir}[scope == User]
				file = filepath.Join(base, filepath.FromSlash(rel))
				data, err := read(file)
				if err != nil && !reported[file] {
					reported[file] = true
					out = append(out, problem("check its permissions", "%s cannot be read: %v", file, err))
				}
				if v, set, err = tomlSetting(data, s.Path); err != nil {
					// The agent refuses a file it cannot parse: whatever
					// it says of hooks, the agent does not start.
					unparsed = true
					if !reported[file] {
						reported[file] = true
						out = append(out, problem("correct it: "+a.Name+" refuses to start until it parses", "%s does not parse: %v", file, err))
					}
				}
			}
			if set {
				value, from = v, file
			}
		}
		name := strings.Join(s.Path, ".")
		switch {
		case unparsed: // the problem above says it: what the file sets is unknown
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
	if a.Trust.Env != "" && os.Getenv(a.Trust.Env) == "true" {
		return ok("the folder is trusted: %s=true, as %s will have it when run from here", a.Trust.Env, a.Name)
	}
	file := filepath.Join(home, filepath.FromSlash(a.Trust.File))
	fix := fmt.Sprintf("trust the folder when %s asks, or add \"%s\": \"TRUST_FOLDER\" to %s", a.Name, dir, file)
	if a.Trust.Env != "" {
		fix += fmt.Sprintf(" (%s=true trusts it for a run, and is then checked here)", a.Trust.Env)
	}
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
		switch {
		case f.Problem:
			fmt.Fprintf(w, "%sPROBLEM %s\n%s        fix: %s\n", indent, f.Text, indent, f.Fix)
		case f.Note:
			fmt.Fprintf(w, "%snote    %s\n", indent, f.Text)
		default:
			fmt.Fprintf(w, "%sok      %s\n", indent, f.Text)
		}
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
		what := h.Command
		if what == warmMarker {
			what = "the warm form, mcp_tool hooks of hookwire's MCP server"
		}
		fmt.Fprintf(w, "  hook in %s (%s): %s\n    events: %s\n", h.File, h.Scope, what, strings.Join(h.Events, ", "))
		for _, f := range h.Findings {
			line("    ", f)
		}
	}
	switch {
	case len(r.Hooks) == 0:
		fmt.Fprintf(w, "  no hookwire hook installed (looked in %s): hookwire install %s -- COMMAND\n", strings.Join(r.Looked, ", "), r.Agent.Name)
	case r.OK() && !slices.ContainsFunc(r.Hooks, func(h Installed) bool { return !h.Started }):
		fmt.Fprintf(w, "  ready: %d hook(s) would run\n", len(r.Hooks))
	case r.OK():
		// What the files say holds; the hooks themselves are unchecked.
		fmt.Fprintf(w, "  ready: %d hook(s) would run, as the files say (not started: --start-hooks checks them)\n", len(r.Hooks))
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

// loads says whether the agent loads the hooks of scope's file here: a
// project's (and local) hooks load only in a folder or project the agent
// trusts, and some agents read a scope only in some ways of running.
func (a *Agent) loads(scope Scope, user *document, home, dir string) []Finding {
	var out []Finding
	if why, ok := a.NotLoaded[scope]; ok {
		out = append(out, problem("install it with --scope user, whose file "+a.Name+" loads however it runs", "%s", why))
	}
	if why := a.userFileMoved(home); scope == User && why != "" {
		out = append(out, problem(fmt.Sprintf("unset %s where %s runs, or install with HOME set so that the file is there", a.UserFileEnv, a.Name), "%s", why))
	}
	if other, ok := a.Shadows[scope]; ok {
		if file, err := a.Path(other, home, dir); err == nil {
			if _, err := os.Stat(file); err == nil {
				out = append(out, problem("install it with --scope "+string(other)+" too", "%s reads %s here, and then not this file: a hook here does not run in this project", a.Name, file))
			}
		}
	}
	for _, said := range []string{a.Review, a.FailsOpen} {
		if said != "" {
			out = append(out, note("%s", said))
		}
	}
	switch {
	case scope == User || a.Trust == nil:
	case a.Trust.Projects:
		out = append(out, a.checkProjectTrust(home, dir))
	case a.Trust.Lists:
		out = append(out, a.checkTrustLists(home, dir))
	default:
		out = append(out, a.checkTrust(user, home, dir))
	}
	return out
}

// checkProjectTrust says whether the agent trusts the project
// (Trust.Projects): the user's config.toml has [projects."DIR"]
// trust_level = "trusted" for dir or for the root of its git repository;
// an entry for dir comes first.
func (a *Agent) checkProjectTrust(home, dir string) Finding {
	file := filepath.Join(home, filepath.FromSlash(a.Trust.File))
	fix := fmt.Sprintf("run %s in the folder and trust it when it asks (%s), or add [projects.%q] trust_level = \"trusted\" to %s", a.Name, a.Trust.Asks, dir, file)
	rules, failed := readTrustRules(file, fix)
	if failed != nil {
		return *failed
	}
	projects, _ := rules["projects"].(map[string]any)
	for _, folder := range []string{dir, gitRoot(dir)} {
		if folder == "" {
			continue
		}
		entry, _ := projects[folder].(map[string]any)
		switch level, _ := entry["trust_level"].(string); level {
		case "trusted":
			return ok("the project is trusted (%s: [projects.%q])", file, folder)
		case "":
		default:
			return problem(fix, "the project is not trusted (%s sets trust_level = %q for %s): %s loads none of its project hooks", file, level, folder, a.Name)
		}
	}
	return problem(fix, "the project is not trusted: %s loads no project hooks (%s) until it is", a.Name, a.Files[Project])
}

// gitRoot is the folder of the git repository dir is in, or "".
func gitRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
