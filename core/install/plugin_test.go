package install

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// pluginHook is the hook install writes for an agent of agents.Plugin:
// hookwire's warm server, by the path of a hookwire that is there.
func pluginHook(t *testing.T, agent string, hook ...string) Hook {
	hookwire := filepath.Join(t.TempDir(), "hookwire")
	if err := os.WriteFile(hookwire, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	server := WarmServer(hookwire, agent, hook)
	return Hook{Command: ShellLine(server), Server: server, Timeout: 60 * time.Second}
}

// An agent of a plugin API gets hookwire's plugin as one module: its
// configuration read back as written; a second install changes nothing;
// another hookwire's plugin is replaced; the user's own module of that
// name, and a link there, are refused and left as they were; uninstall
// removes hookwire's plugin alone; doctor finds it by its text, and says
// what is not as this hookwire writes it.
func TestInstallWritesThePluginAndNeverOverTheUsersOwn(t *testing.T) {
	for name, a := range Agents {
		if a.Layout != Plugin {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			st, err := OpenState(true)
			if err != nil {
				t.Fatal(err)
			}
			home, dir := t.TempDir(), t.TempDir()
			file, err := a.Path(Project, home, dir)
			if err != nil {
				t.Fatal(err)
			}
			target := Target{Agent: a, Scope: Project, File: file, Project: dir}
			hook := pluginHook(t, name, "/srv/venv/bin/python", "/srv/guard.py")
			ch, err := st.Install(target, hook, nil, false)
			if err != nil || !slices.Equal(ch.Events, pluginEvents(a)) {
				t.Fatalf("install: %v, events %v, want %v", err, ch.Events, pluginEvents(a))
			}
			data, _ := os.ReadFile(file)
			c, marked, current := readPlugin(data)
			if !marked || !current || !slices.Equal(c.Server, hook.Server) || c.TimeoutMS != 60000 || !bytes.HasSuffix(data, pluginCode) {
				t.Fatalf("the plugin written reads back as %+v (marked %v, current %v)", c, marked, current)
			}
			if ch, err := st.Install(target, hook, nil, false); err != nil || ch.Changed() || len(ch.Kept) == 0 {
				t.Errorf("a second install: %v, changed %v, kept %v", err, ch.Changed(), ch.Kept)
			}

			r := Doctor(context.Background(), a, home, dir, DoctorOptions{})
			if len(r.Hooks) != 1 || r.Hooks[0].Command != hook.Command || !slices.Equal(r.Hooks[0].Events, pluginEvents(a)) || !r.OK() {
				t.Fatalf("doctor found %+v (ok %v), want the plugin's server for every event", r.Hooks, r.OK())
			}
			// Another hookwire's plugin (its code differs) is a problem for
			// doctor, and install replaces it.
			older := bytes.Replace(data, []byte("MAX_LINE = 1 << 20"), []byte("MAX_LINE = 1 << 30"), 1)
			if bytes.Equal(older, data) {
				t.Fatal("the plugin's code has no MAX_LINE to change")
			}
			os.WriteFile(file, older, 0o644)
			if r := Doctor(context.Background(), a, home, dir, DoctorOptions{}); r.OK() || !strings.Contains(texts(r), "not as this hookwire writes it") {
				t.Errorf("doctor on another hookwire's plugin: %s", texts(r))
			}
			if ch, err := st.Install(target, hook, nil, false); err != nil || !ch.Changed() {
				t.Errorf("install over another hookwire's plugin: %v, changed %v", err, ch.Changed())
			}

			// The user's own plugin of that name, in the user's scope.
			own := []byte("export const Mine = async () => ({})\n")
			userFile := filepath.Join(t.TempDir(), "plugins", "hookwire.js")
			os.MkdirAll(filepath.Dir(userFile), 0o755)
			os.WriteFile(userFile, own, 0o644)
			if _, err := st.Install(Target{Agent: a, Scope: User, File: userFile}, hook, nil, false); err == nil || !strings.Contains(err.Error(), userFile) || !strings.Contains(err.Error(), "plugin of your own") {
				t.Errorf("install over the user's own plugin: %v; want a refusal naming it", err)
			}
			if b, _ := os.ReadFile(userFile); !bytes.Equal(b, own) {
				t.Errorf("the user's own plugin became %q", b)
			}
			if ch, err := st.Uninstall(Target{Agent: a, Scope: User, File: userFile}, "", false); err != nil || ch.Changed() {
				t.Errorf("uninstall of the user's own plugin: %v, changed %v", err, ch.Changed())
			}
			// A link where the plugin goes.
			link := filepath.Join(t.TempDir(), "hookwire.js")
			os.Symlink(userFile, link)
			if _, err := st.Install(Target{Agent: a, Scope: User, File: link}, hook, nil, false); err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("install through a link: %v", err)
			}
			if b, _ := os.ReadFile(userFile); !bytes.Equal(b, own) {
				t.Errorf("install wrote through the link: %q", b)
			}

			// Uninstall of another command leaves it; of every command of
			// hookwire's, removes it and nothing beside it.
			beside := filepath.Join(filepath.Dir(file), "mine.js")
			os.WriteFile(beside, own, 0o644)
			if ch, err := st.Uninstall(target, "other", false); err != nil || ch.Changed() {
				t.Errorf("uninstall of another command: %v, changed %v", err, ch.Changed())
			}
			if ch, err := st.Uninstall(target, "", false); err != nil || !ch.Changed() {
				t.Fatalf("uninstall: %v, changed %v", err, ch.Changed())
			}
			left, _ := os.ReadDir(filepath.Dir(file))
			if len(left) != 1 || left[0].Name() != "mine.js" {
				t.Errorf("left in the plugins folder: %v, want the user's mine.js alone", left)
			}
		})
	}
}

// Doctor says a module at the plugin's place that is not hookwire's, and a
// link there, without reading through it; and a plugin whose server is
// not hookwire's, or not there, is a problem.
func TestDoctorReadsThePluginsTextOnly(t *testing.T) {
	a := Agents["opencode"]
	for _, c := range []struct {
		name, want string
		write      func(file string)
		ok         bool
	}{
		{"the user's own", "not hookwire's plugin", func(f string) { os.WriteFile(f, []byte("export const X = 1\n"), 0o644) }, true},
		{"a link", "symbolic link", func(f string) { os.Symlink("/dev/zero", f) }, true},
		{"another server", "not hookwire's server", func(f string) {
			os.WriteFile(f, PluginModule(PluginConfig{Server: []string{"sh", "-c", "id"}, TimeoutMS: 1000}), 0o644)
		}, false},
		{"a server not there", "is not there", func(f string) {
			os.WriteFile(f, PluginModule(PluginConfig{Server: WarmServer("/nowhere/hookwire", "opencode", []string{"guard"}), TimeoutMS: 1000}), 0o644)
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, dir := t.TempDir(), t.TempDir()
			file, _ := a.Path(Project, home, dir)
			os.MkdirAll(filepath.Dir(file), 0o755)
			c.write(file)
			r := Doctor(context.Background(), a, home, dir, DoctorOptions{})
			if got := texts(r); r.OK() != c.ok || !strings.Contains(got, c.want) {
				t.Errorf("doctor (ok %v) said: %s; want %q, ok %v", r.OK(), got, c.want, c.ok)
			}
		})
	}
}

// A module at the plugin's place is a project's bytes: reading it never
// panics, and only a file of exactly the bytes install writes for its
// configuration is taken for this hookwire's plugin, which is then written
// again the same.
func FuzzReadPlugin(f *testing.F) {
	f.Add(PluginModule(PluginConfig{Server: WarmServer("/usr/bin/hookwire", "opencode", []string{"python3", "guard.py"}), TimeoutMS: 60000}))
	f.Add([]byte(pluginMark + "\n" + pluginConfigPrefix + `{"server":["x"],"timeoutMs":1,"more":2};` + "\n"))
	f.Add([]byte(pluginMark + "\n" + pluginConfigPrefix + `{"server":[]};`))
	f.Add([]byte("export const X = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, marked, current := readPlugin(data)
		if current && (!marked || !bytes.Equal(PluginModule(c), data)) {
			t.Fatalf("taken for hookwire's plugin: %q", data)
		}
	})
}

// An agent that follows the XDG base directories reads its user's plugin
// under $XDG_CONFIG_HOME where that is an absolute path: install writes
// it there, and doctor reads it there.
func TestThePluginOfTheUserIsWhereXDGConfigHomeSays(t *testing.T) {
	a, home, config := Agents["opencode"], t.TempDir(), t.TempDir()
	for value, want := range map[string]string{
		"":                filepath.Join(home, ".config", "opencode", "plugins", "hookwire.js"),
		"relative/config": filepath.Join(home, ".config", "opencode", "plugins", "hookwire.js"),
		config:            filepath.Join(config, "opencode", "plugins", "hookwire.js"),
	} {
		t.Setenv("XDG_CONFIG_HOME", value)
		if got, err := a.Path(User, home, t.TempDir()); err != nil || got != want {
			t.Errorf("XDG_CONFIG_HOME=%q: the user's plugin is %s (%v), want %s", value, got, err, want)
		}
	}
}

// OpenCode's way of running with no plugin is said: the variable set where
// doctor runs is a problem, since no run then loads hookwire's plugin.
func TestDoctorSaysWhatRunsWithoutThePlugin(t *testing.T) {
	a := Agents["opencode"]
	home, dir := t.TempDir(), t.TempDir()
	for value, ok := range map[string]bool{"": true, "0": true, "1": false, "true": false} {
		t.Setenv("OPENCODE_PURE", value)
		r := Doctor(context.Background(), a, home, dir, DoctorOptions{})
		want := map[bool]string{true: "opencode --pure (or OPENCODE_PURE set) runs with no plugin", false: "OPENCODE_PURE is set"}[ok]
		if got := texts(r); r.OK() != ok || !strings.Contains(got, want) {
			t.Errorf("OPENCODE_PURE=%q: doctor (ok %v) said %s", value, r.OK(), got)
		}
	}
}
