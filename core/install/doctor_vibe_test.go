package install

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vibeProject installs a guard into Mistral Vibe's hooks.toml of scope (the
// user's own hooks around it), with a bridge that is there, and returns
// the file and what install said.
func vibeProject(t *testing.T, c *clone, scope Scope) (string, []string) {
	t.Helper()
	a := Agents["mistral-vibe"]
	hook := Hook{Command: Command(c.bridge, a.Name, []string{"/srv/venv/bin/python", "/srv/guard.py"}), Name: "guard.py", Timeout: a.facts().EventDeadline() + 10e9}
	ch, events := installTestdata(t, c, a, scope, "mistral-vibe.toml", hook)
	return ch.File, Caveats(a, scope, events)
}

// trustVibe writes Vibe's trust rules: the folders it trusts and those
// it does not.
func trustVibe(t *testing.T, home string, trusted, untrusted []string) {
	t.Helper()
	writeFile(t, filepath.Join(home, ".vibe", "trusted_folders.toml"), fmt.Sprintf("trusted = %q\nuntrusted = %q\n", trusted, untrusted))
}

// Vibe runs the tool when a hook fails unless its entry says strict =
// true: install writes it on the guard's entry, and says what a failure
// would let through otherwise; doctor says it too, and reports a guard's
// entry without it as a problem, for then the hook does not guard.
func TestVibeStrictIsWrittenAndItsFailingOpenSaidAtInstallAndDoctor(t *testing.T) {
	c := newClone(t)
	file, caveats := vibeProject(t, c, Project)
	trustVibe(t, c.home, []string{c.dir}, nil)
	const unguarded = "unless its entry says strict = true"
	if !strings.Contains(strings.Join(caveats, "\n"), unguarded) {
		t.Errorf("install's caveats do not say Vibe fails open without strict:\n%s", caveats)
	}
	r := Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); !r.OK() || !strings.Contains(out, unguarded) || !strings.Contains(out, "the pre_tool entry says strict = true") {
		t.Errorf("doctor, with the hook as install wrote it:\n%s", out)
	}
	data, _ := os.ReadFile(file)
	written := string(data)
	if strings.Count(written, "strict = true") != 2 { // the user's guard's, and hookwire's pre_tool
		t.Fatalf("install wrote strict = true on other entries than the guard's:\n%s", written)
	}
	writeFile(t, file, strings.Replace(written, "timeout = 60\nstrict = true\n", "timeout = 60\n", 1))
	r = Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{})
	if out := texts(r); r.OK() || !strings.Contains(out, "the pre_tool entry does not say strict = true") || !strings.Contains(out, "NOT READY") {
		t.Errorf("doctor, with the guard's entry not strict:\n%s", out)
	}
}

// Vibe loads a project's hooks only in a folder its trust rules trust:
// the closest folder they name, the project's or one that holds it,
// decides. The user's hooks load anywhere.
func TestDoctorVibeFolderTrust(t *testing.T) {
	for _, tc := range []struct {
		name               string
		trusted, untrusted func(c *clone) []string
		ready              bool
		want               string
	}{
		{"no rules", nil, nil, false, "the folder is not trusted: mistral-vibe loads no project hooks (.vibe/hooks.toml) until it is"},
		{"trusted", func(c *clone) []string { return []string{c.dir} }, nil, true, "the folder is trusted"},
		{"its parent trusted", func(c *clone) []string { return []string{filepath.Dir(c.dir)} }, nil, true, "the folder is trusted"},
		{"untrusted", nil, func(c *clone) []string { return []string{c.dir} }, false, "names " + "%s untrusted"},
		{"untrusted in a trusted parent", func(c *clone) []string { return []string{filepath.Dir(c.dir)} }, func(c *clone) []string { return []string{c.dir} }, false, "untrusted"},
		{"trusted in an untrusted parent", func(c *clone) []string { return []string{c.dir} }, func(c *clone) []string { return []string{filepath.Dir(c.dir)} }, true, "the folder is trusted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClone(t)
			vibeProject(t, c, Project)
			var trusted, untrusted []string
			if tc.trusted != nil {
				trusted = tc.trusted(c)
			}
			if tc.untrusted != nil {
				untrusted = tc.untrusted(c)
			}
			if tc.trusted != nil || tc.untrusted != nil {
				trustVibe(t, c.home, trusted, untrusted)
			}
			want := tc.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, c.dir)
			}
			r := Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{})
			if out := texts(r); r.OK() != tc.ready || !strings.Contains(out, want) || !tc.ready && !strings.Contains(out, "vibe --trust trusts it for one run only") {
				t.Errorf("ready %v, want %v and %q:\n%s", r.OK(), tc.ready, want, out)
			}
		})
	}
	c := newClone(t)
	vibeProject(t, c, User)
	if r := Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{}); !r.OK() {
		t.Errorf("the user's hooks need no trusted folder:\n%s", texts(r))
	}
	// VIBE_HOME moves what Vibe reads from ~/.vibe: the hook there is not
	// read, and doctor says so; nor are the trust rules, which doctor reads
	// where Vibe does. Set to ~/.vibe itself, nothing moves.
	elsewhere := filepath.Join(c.home, "elsewhere")
	t.Setenv("VIBE_HOME", elsewhere)
	if r := Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{}); r.OK() || !strings.Contains(texts(r), "VIBE_HOME is set ("+elsewhere+")") {
		t.Errorf("with VIBE_HOME elsewhere:\n%s", texts(r))
	}
	p := newClone(t)
	vibeProject(t, p, Project)
	trustVibe(t, p.home, []string{p.dir}, nil) // in ~/.vibe, which Vibe does not read now
	if r := Doctor(context.Background(), Agents["mistral-vibe"], p.home, p.dir, DoctorOptions{}); r.OK() || !strings.Contains(texts(r), filepath.Join(elsewhere, "trusted_folders.toml")) {
		t.Errorf("with VIBE_HOME elsewhere, the trust rules of ~/.vibe:\n%s", texts(r))
	}
	t.Setenv("VIBE_HOME", filepath.Join(c.home, ".vibe"))
	if r := Doctor(context.Background(), Agents["mistral-vibe"], c.home, c.dir, DoctorOptions{}); !r.OK() {
		t.Errorf("with VIBE_HOME the usual folder:\n%s", texts(r))
	}
}
