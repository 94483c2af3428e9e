package inspect

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// composerCall posts a call of the composer with a folder and variables.
func composerCall(t *testing.T, srv *Server, argv []string, dir string, env ...string) (int, string) {
	t.Helper()
	b, _ := json.Marshal(CallRequest{Command: argv, Method: "hook.before_tool", Params: json.RawMessage(`{}`), Dir: dir, Env: env})
	return post(t, srv, "/api/call", string(b))
}

// An allowed command that names a file by a relative path runs another
// program in another folder: the page may run it only in a folder the
// user named (--allow-dir), found by any path that leads to it, and never
// in one that is not, or not there.
func TestTheComposerRunsAHookOnlyInAFolderTheUserAllowed(t *testing.T) {
	root := t.TempDir()
	allowed, other := filepath.Join(root, "allowed"), filepath.Join(root, "other")
	for _, d := range []string{allowed, other} {
		os.Mkdir(d, 0o700)
		// The same relative name in each: which one runs is the folder's.
		if err := os.WriteFile(filepath.Join(d, "hook.sh"), []byte("touch ran; exit 1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(other, filepath.Join(root, "to-other"))
	os.Symlink(allowed, filepath.Join(root, "to-allowed"))
	hook := []string{"sh", "hook.sh"}
	srv, err := Start(Options{Socket: filepath.Join(t.TempDir(), "hookwire", "inspect.sock"), Allow: [][]string{hook}, AllowDirs: []string{allowed}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, dir := range []string{other, filepath.Join(root, "to-other"), filepath.Join(allowed, "..", "other"), filepath.Join(root, "gone"), filepath.Join(allowed, "hook.sh"), "allowed", root} {
		code, out := composerCall(t, srv, hook, dir)
		var refusal struct{ Error string }
		json.Unmarshal([]byte(out), &refusal)
		if code != http.StatusForbidden || refusal.Error == "" {
			t.Errorf("the folder %s: status %d, %s; want 403 and why", dir, code, out)
		}
		if _, err := os.Stat(filepath.Join(other, "ran")); err == nil {
			t.Fatalf("the folder %s: the page ran the hook in a folder the user did not allow", dir)
		}
	}
	if code, out := composerCall(t, srv, hook, other); !strings.Contains(out, "--allow-dir") {
		t.Errorf("the refusal does not say which flag allows the folder: %d %s", code, out)
	}
	for _, dir := range []string{allowed, filepath.Join(root, "to-allowed")} {
		if code, out := composerCall(t, srv, hook, dir); code != http.StatusOK {
			t.Errorf("the allowed folder %s: status %d, %s", dir, code, out)
		}
		if _, err := os.Stat(filepath.Join(allowed, "ran")); err != nil {
			t.Errorf("the hook did not run in the allowed folder %s: %v", dir, err)
		}
		os.Remove(filepath.Join(allowed, "ran"))
	}
	// The page is told where it may run a hook.
	var got struct{ Dirs []string }
	_, body := request(t, srv, "GET", "/api/allowed?token="+srv.token, nil)
	json.Unmarshal([]byte(body), &got)
	wd, _ := os.Getwd()
	real, _ := filepath.EvalSymlinks(allowed)
	if len(got.Dirs) != 2 || !strings.HasSuffix(wd, strings.TrimPrefix(got.Dirs[0], "/private")) || got.Dirs[1] != real {
		t.Errorf("the page is told the folders %q, want the inspector's own and %s", got.Dirs, real)
	}
}

// The page sets a variable for the hook only when the user named it
// (--allow-env); a name that chooses the program or its code is refused
// even then, and a malformed entry is refused: none of them starts the
// hook.
func TestTheComposerSetsOnlyTheVariablesTheUserAllowed(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	hook := []string{"sh", "-c", `printf '%s|%s' "$HOOK_MODE" "$OTHER" > ` + out + "; exit 1"}
	srv, err := Start(Options{Socket: filepath.Join(t.TempDir(), "hookwire", "inspect.sock"), Allow: [][]string{hook}, AllowEnv: []string{"HOOK_MODE"}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, env := range [][]string{
		{"OTHER=1"}, {"LD_PRELOAD=/tmp/evil.so"}, {"PATH=/tmp"}, {"path=/tmp"}, {"PYTHONPATH=/tmp"}, {"NODE_OPTIONS=--require /tmp/x.js"},
		{"HOME=/tmp"}, {"DYLD_INSERT_LIBRARIES=/tmp/x"}, {"BASH_FUNC_ls%%=() { id; }"},
		{"HOOK_MODE"}, {"=x"}, {"1HOOK=x"}, {"HOOK MODE=x"}, {"HOOK_MODE=a\x00b"}, {"HOOK_MODE=a", "HOOK_MODE=b"}, {"HOOK_MODE=strict", "OTHER=1"},
	} {
		code, body := composerCall(t, srv, hook, "", env...)
		var refusal struct{ Error string }
		json.Unmarshal([]byte(body), &refusal)
		if code != http.StatusForbidden || refusal.Error == "" {
			t.Errorf("%q: status %d, %s; want 403 and why", env, code, body)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: the hook ran", env)
		}
	}
	if _, body := composerCall(t, srv, hook, "", "OTHER=1"); !strings.Contains(body, "--allow-env OTHER") {
		t.Errorf("the refusal does not say which flag allows the variable: %s", body)
	}
	if code, body := composerCall(t, srv, hook, "", "HOOK_MODE=strict"); code != http.StatusOK {
		t.Fatalf("an allowed variable: status %d, %s", code, body)
	}
	if b, _ := os.ReadFile(out); string(b) != "strict|" {
		t.Errorf("the hook saw %q, want HOOK_MODE=strict and nothing else set", b)
	}
}

// --allow-env refuses, when the inspector starts, a name that would let
// the page choose the program an allowed command runs, or the code it
// loads; --allow-dir refuses what is not a folder.
func TestAllowEnvRefusesTheVariablesThatChooseTheProgram(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "hookwire", "inspect.sock")
	for _, name := range []string{"PATH", "Path", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "PYTHONPATH", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "BASH_ENV", "HOME", "GIT_CONFIG_PARAMETERS", "JAVA_TOOL_OPTIONS", "A=B", "", "1X"} {
		if srv, err := Start(Options{Socket: sock, AllowEnv: []string{name}}); err == nil {
			srv.Close()
			t.Errorf("--allow-env %q was taken", name)
		} else if !strings.Contains(err.Error(), "--allow-env") {
			t.Errorf("--allow-env %q: %v, which does not name the flag", name, err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	for _, dir := range []string{file, filepath.Join(t.TempDir(), "gone")} {
		if srv, err := Start(Options{Socket: sock, AllowDirs: []string{dir}}); err == nil {
			srv.Close()
			t.Errorf("--allow-dir %s was taken", dir)
		}
	}
	srv, err := Start(Options{Socket: sock, AllowEnv: []string{"HOOK_MODE", "WEATHER_API_URL"}, AllowDirs: []string{t.TempDir()}})
	if err != nil {
		t.Fatalf("names and a folder that are fine: %v", err)
	}
	srv.Close()
}
