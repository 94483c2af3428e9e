package install

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/hookwire/hookwire/core/agents"
)

// tomlTestAgent is an agent whose hooks are an array of tables in a TOML
// file, named by table and eventKey (Kimi CLI's [[hooks]] event = ...,
// Mistral Vibe's type = ...), with Goose's events; set are keys every entry
// gets.
func tomlTestAgent(table, eventKey string, set map[string]any) *Agent {
	return &Agent{Name: "goose", Install: agents.Install{
		Files:   map[Scope]string{User: ".agent/config.toml", Project: ".agent/hooks.toml"},
		Matcher: ".*",
		Command: "command",
		Timeout: Timeout{Field: "timeout", Unit: time.Second},
		TOML:    &agents.TOMLHooks{Table: table, EventKey: eventKey, MatcherKey: "matcher", Set: set},
	}}
}

// userTOML is a user's config.toml as people write it: comments, their
// model provider, their own hook (a [[hooks]] with a table of its own
// after it), and a last line with no line end.
const userTOML = `# Kimi CLI settings
default_model = "local" # the scripted one

[providers.local]
type = "openai_legacy"
base_url = "http://127.0.0.1:9/v1"
api_key = "sk-test"   # not a secret

[models.local]
provider = "local"
model = "m"
max_context_size = 131072

# my own formatter
[[hooks]]
event = "PostToolUse"
matcher = "WriteFile"
command = "prettier --write \"$FILE\""
timeout = 10

[loop_control]
max_steps_per_turn = 50`

// tomlFileOf decodes a TOML file, failing the test where it does not parse.
func tomlFileOf(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := toml.Unmarshal(data, &v); err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, data)
	}
	return v
}

// Install appends hookwire's block after the user's last byte (and a line
// end), which parses with the user's settings and own hook as they were;
// installing again changes nothing; uninstall gives the bytes back.
func TestTOMLInstallKeepsTheUsersFile(t *testing.T) {
	a := tomlTestAgent("hooks", "event", nil)
	hook := testHook("goose")
	events := []string{"PreToolUse", "SessionEnd"}
	ch, err := install(a, "config.toml", []byte(userTOML), hook, events)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(ch.After, []byte(userTOML+"\n"+tomlBlockBegin+"\n")) || !bytes.HasSuffix(ch.After, []byte(tomlBlockEnd+"\n")) {
		t.Fatalf("the user's bytes, then the block:\n%s", ch.After)
	}
	want := "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \".*\"\ncommand = " + tomlString(hook.Command) + "\ntimeout = 60\n\n[[hooks]]\nevent = \"SessionEnd\"\ncommand = "
	if !strings.Contains(string(ch.After), want) {
		t.Errorf("the entries, in the order of an entry, a matcher where the event is about tools:\n%s", ch.After)
	}
	v := tomlFileOf(t, ch.After)
	hooks := v["hooks"].([]any)
	if len(hooks) != 3 || hooks[0].(map[string]any)["command"] != `prettier --write "$FILE"` || hooks[1].(map[string]any)["command"] != hook.Command {
		t.Errorf("hooks: %v", hooks)
	}
	if v["loop_control"].(map[string]any)["max_steps_per_turn"] != int64(50) {
		t.Errorf("the user's last table: %v", v["loop_control"])
	}
	if !slices.Equal(ch.Events, events) || len(ch.Kept) != 0 {
		t.Errorf("events %v, kept %v", ch.Events, ch.Kept)
	}

	again, err := install(a, "config.toml", ch.After, hook, events)
	if err != nil || again.Changed() || !slices.Equal(again.Kept, events) {
		t.Fatalf("a second install: changed %v, kept %v, %v\n%s", again.Changed(), again.Kept, err, again.Diff())
	}

	out, err := uninstall(a, "config.toml", ch.After, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.After) != userTOML+"\n" || !slices.Equal(out.Events, events) {
		t.Fatalf("uninstall: events %v\n%s", out.Events, out.Diff())
	}
}

// A second hook goes into the block where it is, even when the user has
// written after it since; uninstall of one hook keeps the other.
func TestTOMLBlockWrittenWhereItIs(t *testing.T) {
	a := tomlTestAgent("hooks", "event", nil)
	first, second := hookN("goose", 1), hookN("goose", 2)
	ch, err := install(a, "config.toml", []byte("a = 1\n"), first, []string{"PreToolUse"})
	if err != nil {
		t.Fatal(err)
	}
	after := "\n# added later\n[tui]\ntheme = \"dark\"\n"
	edited := append(slices.Clone(ch.After), after...)
	ch2, err := install(a, "config.toml", edited, second, []string{"PreToolUse"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(ch2.After), "a = 1\n"+tomlBlockBegin+"\n") || !strings.HasSuffix(string(ch2.After), tomlBlockEnd+"\n"+after) {
		t.Fatalf("the block, written where it was:\n%s", ch2.After)
	}
	if n := strings.Count(string(ch2.After), "[[hooks]]"); n != 2 {
		t.Errorf("%d entries, want 2:\n%s", n, ch2.After)
	}
	out, err := uninstall(a, "config.toml", ch2.After, first.Command, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.After), second.Command[:20]) || strings.Count(string(out.After), "[[hooks]]") != 1 {
		t.Fatalf("uninstall of the first hook:\n%s", out.After)
	}
	all, err := uninstall(a, "config.toml", out.After, "", nil)
	if err != nil || string(all.After) != "a = 1\n"+after {
		t.Fatalf("uninstall of the rest: %v\n%s", err, all.After)
	}
}

// A file install made holds nothing else: uninstall says so (After nil),
// and a file of CR LF lines gets the block's lines in CR LF.
func TestTOMLNewFileAndCRLF(t *testing.T) {
	a := tomlTestAgent("hooks", "event", nil)
	hook := testHook("goose")
	ch, err := install(a, "config.toml", nil, hook, []string{"PreToolUse"})
	if err != nil || !strings.HasPrefix(string(ch.After), tomlBlockBegin) {
		t.Fatalf("a new file: %v\n%s", err, ch.After)
	}
	out, err := uninstall(a, "config.toml", ch.After, "", nil)
	if err != nil || out.After != nil || len(out.rest) != 0 {
		t.Fatalf("uninstall of a file of the block alone: after %q, rest %q, %v", out.After, out.rest, err)
	}

	user := "# mine\r\nx = 1\r\n"
	ch, err = install(a, "config.toml", []byte(user), hook, []string{"PreToolUse"})
	if err != nil || !crlf(ch.After) || !strings.HasPrefix(string(ch.After), user) {
		t.Fatalf("CR LF: %v\n%q", err, ch.After)
	}
	tomlFileOf(t, ch.After)
	if out, err = uninstall(a, "config.toml", ch.After, "", nil); err != nil || string(out.After) != user {
		t.Fatalf("CR LF uninstall: %v\n%q", err, out.After)
	}
	// A CR LF file without its last line end gets one of its kind.
	ch, _ = install(a, "config.toml", []byte("x = 1\r\ny = 2"), hook, []string{"PreToolUse"})
	if !strings.HasPrefix(string(ch.After), "x = 1\r\ny = 2\r\n# >>>") || !crlf(ch.After) {
		t.Errorf("%q", ch.After)
	}
}

// What install cannot merge into is refused, naming the file and the
// line: a file that does not parse, a hooks key of another shape, a block
// with a marker line gone or a value hookwire does not write.
func TestTOMLRefused(t *testing.T) {
	a := tomlTestAgent("hooks", "event", nil)
	hook := testHook("goose")
	block, _ := a.renderTOMLBlock([]map[string]any{a.tomlEntry(hook, "PreToolUse")})
	beginOnly, _, _ := strings.Cut(string(block), tomlBlockEnd)
	_, endOnly, _ := strings.Cut(string(block), "\n")
	for _, c := range []struct{ name, data, want string }{
		{"syntax", "a = 1\nb = = 2\n", "config.toml: line 2"},
		{"a key twice", "a = 1\n\na = 2\n", "config.toml: line 3"},
		{"hooks a string", "hooks = \"x\"\n", "hooks is not an array of tables"},
		{"hooks a table", "[hooks]\nx = 1\n", "hooks is not an array of tables"},
		{"hooks an inline array", "hooks = [{event = \"Stop\", command = \"x\"}]\n", "would not read as"},
		{"no end", "a = 1\n" + beginOnly, "config.toml: line 2: a block of hookwire's hooks begins here and does not end"},
		{"no beginning", "a = 1\n" + endOnly, "config.toml: line 7: the end of a block"},
		{"two blocks", string(block) + string(block), "config.toml: line 8: a second block"},
		{"a key of the user's in the block", "a = 1\n" + strings.Replace(string(block), "[[hooks]]", "mine = 1\n[[hooks]]", 1), "line 2: hookwire's block holds mine"},
		{"a table in an entry", "a = 1\n" + strings.Replace(string(block), tomlBlockEnd, "[hooks.env]\nX = \"1\"\n"+tomlBlockEnd, 1), "move your own hooks out of the block"},
	} {
		ch, err := install(a, "config.toml", []byte(c.data), hookN("goose", 9), []string{"PreToolUse"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if ch.Changed() {
			t.Errorf("%s: a refused file changes:\n%s", c.name, ch.Diff())
		}
	}
	// A string a marker's words begin is no marker.
	inString := "s = '''\n" + tomlBlockBegin + "\n'''\n"
	if ch, err := install(a, "config.toml", []byte(inString), hook, []string{"PreToolUse"}); err != nil || !strings.HasPrefix(string(ch.After), inString+tomlBlockBegin) {
		t.Errorf("a marker in a multi-line string: %v\n%s", err, ch.After)
	}
}

// Another agent's shape: its table and event key, and the keys of its
// own every entry gets (Vibe's strict). A hook of hookwire's the user moved
// out of the block stays, and uninstall says so.
func TestTOMLOtherShape(t *testing.T) {
	a := tomlTestAgent("hook-list", "type", map[string]any{"strict": true})
	hook := testHook("goose")
	ch, err := install(a, "hooks.toml", []byte("# project hooks\n"), hook, []string{"PreToolUse"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[[hook-list]]\ntype = \"PreToolUse\"\nmatcher = \".*\"\ncommand = " + tomlString(hook.Command) + "\ntimeout = 60\nstrict = true\n"
	if !strings.Contains(string(ch.After), want) {
		t.Fatalf("want\n%s\nin\n%s", want, ch.After)
	}
	moved := "[[hook-list]]\ntype = \"Stop\"\ncommand = " + tomlString(hook.Command) + "\n"
	out, err := uninstall(a, "hooks.toml", append(slices.Clone(ch.After), moved...), "", nil)
	if err != nil || string(out.After) != "# project hooks\n"+moved {
		t.Fatalf("uninstall: %v\n%s", err, out.After)
	}
	if len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "1 hook(s) of hookwire's are outside its block") {
		t.Errorf("notes: %q", out.Notes)
	}
}

// Through the state folder: the file is written by the safe path (no
// link followed out of a project, a backup of the file as it was), and
// uninstall gives the bytes back and removes the backup.
func TestTOMLThroughState(t *testing.T) {
	s := newState(t)
	a := tomlTestAgent("hooks", "event", nil)
	dir := t.TempDir()
	file, _ := a.Path(Project, "", dir)
	putFile(t, file, userTOML, 0o640)
	tg := Target{Agent: a, Scope: Project, File: file, Project: dir}
	ch, err := s.Install(tg, testHook("goose"), []string{"PreToolUse"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.NewBackup || readString(t, ch.Backup) != userTOML || readString(t, file) != string(ch.After) {
		t.Fatalf("backup %q (new %v)\n%s", ch.Backup, ch.NewBackup, readString(t, file))
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o640 {
		t.Errorf("the file's mode: %v", info.Mode().Perm())
	}
	out, err := s.Uninstall(tg, "", false)
	if err != nil || !out.Restored || readString(t, file) != userTOML {
		t.Fatalf("uninstall: restored %v, %v\n%s", out.Restored, err, readString(t, file))
	}
	if _, err := os.Stat(ch.Backup); !os.IsNotExist(err) {
		t.Errorf("the backup is still there: %v", err)
	}
	// A project's file that is a link out of the project is not written.
	outside := filepath.Join(t.TempDir(), "config.toml")
	putFile(t, outside, userTOML, 0o644)
	os.Remove(file)
	if err := os.Symlink(outside, file); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(tg, testHook("goose"), []string{"PreToolUse"}, false); err == nil || readString(t, outside) != userTOML {
		t.Errorf("a link out of the project: %v", err)
	}
}

// FuzzTOMLHooks: a TOML hooks file is the user's bytes, whatever they are.
// Reading them never panics; where install merges into them, the bytes
// outside hookwire's block are the user's as they were, the file parses
// with the hook in its array, and uninstall takes the hook out again,
// leaving those bytes.
func FuzzTOMLHooks(f *testing.F) {
	a := tomlTestAgent("hooks", "event", nil)
	hook := testHook("goose")
	installed, _ := install(a, "config.toml", []byte(userTOML), hookN("goose", 1), []string{"Stop"})
	for _, seed := range []string{userTOML, string(installed.After), "", "a = 1", "[hooks]\n", "x = '''\n# >>> hookwire\n'''\n", "# <<< hookwire\n", "a = 1\r\n", "[[hooks]]\nevent = 1\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ch, err := install(a, "config.toml", data, hook, []string{"PreToolUse"})
		if err != nil {
			if ch.Changed() {
				t.Fatalf("a refused file changes: %v", err)
			}
			return
		}
		if !ch.Changed() {
			return // the hook is there already
		}
		b, err := findTOMLBlock(ch.After)
		if err != nil || !b.found {
			t.Fatalf("no block in what install wrote: %v\n%q", err, ch.After)
		}
		outside := slices.Concat(ch.After[:b.start], ch.After[b.end:])
		if was, _ := findTOMLBlock(data); was.found {
			data = slices.Concat(data[:was.start], data[was.end:])
		}
		if !bytes.Equal(bytes.TrimSuffix(bytes.TrimSuffix(outside, []byte("\n")), []byte("\r")), data) && !bytes.Equal(outside, data) {
			t.Fatalf("the bytes outside the block changed:\n%q\n%q", data, outside)
		}
		out, err := uninstall(a, "config.toml", ch.After, hook.Command, nil)
		if err != nil {
			t.Fatalf("uninstall of what install wrote: %v\n%q", err, ch.After)
		}
		left := out.After
		if left == nil {
			left = out.rest
		}
		tables, err := a.tomlTables(left)
		if err != nil {
			t.Fatalf("uninstall left a file that does not parse: %v\n%q", err, left)
		}
		if n := len(a.tomlEntries(tables, "", func(c string) bool { return c == hook.Command })); n != 0 {
			t.Fatalf("uninstall left %d entries of the hook:\n%q", n, left)
		}
		if b, _ := findTOMLBlock(left); b.found {
			data = slices.Concat(left[:b.start], left[b.end:])
			left = data
		}
		if !bytes.Equal(left, outside) {
			t.Fatalf("uninstall changed the bytes outside the block:\n%q\n%q", outside, left)
		}
	})
}

// Doctor reads a TOML hooks file as install writes it: the hooks of
// hookwire's among the user's, each with its events and its timeout
// checked in the agent's unit; a file that does not parse is a problem
// naming its line.
func TestTOMLDoctorReadsTheHooks(t *testing.T) {
	a := tomlTestAgent("hooks", "event", nil)
	home := t.TempDir()
	file, _ := a.Path(User, home, "")
	hook := testHook("goose")
	ch, err := install(a, file, []byte(userTOML), hook, []string{"PreToolUse", "SessionEnd"})
	if err != nil {
		t.Fatal(err)
	}
	short := strings.Replace(string(ch.After), "timeout = 60\n\n[[hooks]]\nevent = \"SessionEnd\"", "timeout = 5\n\n[[hooks]]\nevent = \"SessionEnd\"", 1)
	putFile(t, file, short, 0o644)
	r := Doctor(t.Context(), a, home, t.TempDir(), DoctorOptions{})
	if len(r.Hooks) != 1 || r.Hooks[0].Command != hook.Command || !slices.Equal(r.Hooks[0].Events, []string{"PreToolUse", "SessionEnd"}) {
		t.Fatalf("hooks: %+v", r.Hooks)
	}
	var said []string
	for _, f := range r.Hooks[0].Findings {
		said = append(said, f.Text)
	}
	text := strings.Join(said, "\n")
	if !strings.Contains(text, "timeout 1m0s, above the bridge's deadline") || !strings.Contains(text, "the agent stops the hook after 5s") {
		t.Errorf("the timeouts of both entries:\n%s", text)
	}
	putFile(t, file, "a = 1\nb = \n", 0o644)
	r = Doctor(t.Context(), a, home, t.TempDir(), DoctorOptions{})
	if len(r.Findings) != 1 || !r.Findings[0].Problem || !strings.Contains(r.Findings[0].Text, file+": line 2") {
		t.Errorf("a file that does not parse: %+v", r.Findings)
	}
}

// TestInstallExistingTOML is TestInstallExisting for the agents whose hooks
// are TOML tables: a guard installed into a realistic file of each agent
// and scope (its provider settings, comments, the user's own hooks) keeps
// every byte of the user's, parses with the user's hooks first and the
// guard's after; the backup holds the original, a second install changes
// nothing, and uninstall gives the same bytes back.
func TestInstallExistingTOML(t *testing.T) {
	forEachRealisticFile(t, true, func(t *testing.T, name string, a *Agent, scope Scope, original []byte) {
		home, dir := t.TempDir(), t.TempDir()
		file, _ := a.Path(scope, home, dir)
		putFile(t, file, string(original), 0o600)
		t.Setenv("XDG_STATE_HOME", t.TempDir())
		hook := testHook(name)
		events := Events(agents.ByName(name), guardModes)
		ch, err := Install(a, file, hook, events)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ch.Events, events) || !bytes.HasPrefix(ch.After, original) {
			t.Fatalf("events %v (want %v), the user's bytes first:\n%s", ch.Events, events, ch.Diff())
		}
		before, err := a.tomlTables(original)
		if err != nil {
			t.Fatal(err)
		}
		after, err := a.tomlTables(ch.After)
		if err != nil || len(after) != len(before)+len(events) || !reflect.DeepEqual(after[:len(before)], before) {
			t.Fatalf("the hooks: %v\n%v", err, after)
		}
		for _, event := range events {
			if len(a.tomlEntries(after, event, func(c string) bool { return c == hook.Command })) != 1 {
				t.Errorf("%s has no entry for the hook:\n%s", event, ch.After)
			}
		}
		backup, err := ch.Write()
		if err != nil {
			t.Fatal(err)
		}
		if kept, _ := os.ReadFile(backup); string(kept) != string(original) {
			t.Fatalf("backup %s holds:\n%s", backup, kept)
		}
		if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
			t.Errorf("the file's mode became %v", info.Mode().Perm())
		}
		again, err := Install(a, file, hook, events)
		if err != nil || again.Changed() || !slices.Equal(again.Kept, events) {
			t.Fatalf("a second install: %v, kept %v\n%s", err, again.Kept, again.Diff())
		}
		out, err := Uninstall(a, file, "")
		if err != nil || string(out.After) != string(original) {
			t.Fatalf("uninstall: %v, left:\n%s", err, out.After)
		}
	})
}

// Where the agent's variable moves its user's folder (Kimi CLI's
// KIMI_SHARE_DIR), install's caveats and doctor say the file is not read;
// set to the folder under home, it is.
func TestUserFileMoved(t *testing.T) {
	a := Agents["kimi-cli"]
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KIMI_SHARE_DIR", filepath.Join(home, "elsewhere"))
	want := "KIMI_SHARE_DIR is set (" + filepath.Join(home, "elsewhere") + "): kimi-cli reads " + filepath.Join(home, "elsewhere", "config.toml")
	if c := Caveats(a, User, []string{"PreToolUse"}); !slices.ContainsFunc(c, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("caveats: %q", c)
	}
	if f := a.loads(User, nil, home, t.TempDir()); !slices.ContainsFunc(f, func(f Finding) bool { return f.Problem && strings.HasPrefix(f.Text, want) }) {
		t.Errorf("doctor: %+v", f)
	}
	t.Setenv("KIMI_SHARE_DIR", filepath.Join(home, ".kimi"))
	if why := a.userFileMoved(home); why != "" {
		t.Errorf("the folder under home: %s", why)
	}
}

// Kimi CLI runs the tool when a hook fails in any way but exit code 2 and
// has no switch that fails closed: install's caveats and doctor say what
// is then unguarded, for the hook install wrote into a realistic file.
func TestKimiFailsOpenIsSaidAtInstallAndDoctor(t *testing.T) {
	c := newClone(t)
	t.Setenv("KIMI_SHARE_DIR", "")
	a := Agents["kimi-cli"]
	hook := Hook{Command: Command(c.bridge, a.Name, []string{"/srv/venv/bin/python", "/srv/guard.py"}), Timeout: 35 * time.Second}
	_, events := installTestdata(t, c, a, User, "kimi-cli.toml", hook)
	const unguarded = "if hookwire-bridge itself is missing or cannot start, Kimi CLI runs every tool call unguarded"
	if caveats := strings.Join(Caveats(a, User, events), "\n"); !strings.Contains(caveats, unguarded) {
		t.Errorf("install's caveats do not say Kimi CLI fails open:\n%s", caveats)
	}
	r := Doctor(t.Context(), a, c.home, c.dir, DoctorOptions{})
	if out := texts(r); !r.OK() || !strings.Contains(out, unguarded) || !strings.Contains(out, "timeout 35s, above the bridge's deadline of 25s") {
		t.Errorf("doctor:\n%s", out)
	}
}
