package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// inspectProc runs hookwire inspect with args, with a socket of this
// test's and PATH led by path, and returns the URL it printed.
func inspectProc(t *testing.T, path string, args ...string) (url, socket string) {
	t.Helper()
	socket = filepath.Join(t.TempDir(), "hookwire", "inspect.sock")
	cmd := exec.Command(hookwireBin, append([]string{"inspect"}, args...)...)
	cmd.Env = append(os.Environ(), "HOOKWIRE_INSPECT_SOCKET="+socket)
	if path != "" {
		cmd.Env = append(cmd.Env, "PATH="+path+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("hookwire inspect printed no URL: %v", err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "hookwire inspect: ")), socket
}

// Every user of the machine may read a process's command line (ps): the
// browser opener is given a file of this user's alone that leads to the
// page, never the URL with its token.
func TestInspectOpenPutsTheTokenOnNoCommandLine(t *testing.T) {
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "argv")
	// The opener records its command line, word by word.
	opener := "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > " + record + ".tmp && mv " + record + ".tmp " + record + "\n"
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(opener), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	url, socket := inspectProc(t, bin, "--open")
	token := strings.TrimPrefix(url[strings.Index(url, "?"):], "?token=")
	if len(token) < 16 {
		t.Fatalf("the URL %q has no token", url)
	}
	waitForFile(t, record, ".html")
	b, _ := os.ReadFile(record)
	argv := strings.Split(strings.TrimSpace(string(b)), "\n")
	if strings.Contains(string(b), token) {
		t.Fatalf("the opener's command line holds the token: %q", argv)
	}
	if len(argv) != 2 {
		t.Fatalf("the opener was given %q, want one path", argv[1:])
	}
	launch := argv[1]
	if filepath.Dir(launch) != filepath.Dir(socket) {
		t.Errorf("the page that opens the inspector is %s, not in the inspector's own folder %s", launch, filepath.Dir(socket))
	}
	fi, err := os.Lstat(launch)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("the page that opens the inspector has mode %v, want a file of mode 0600", fi.Mode())
	}
	// What a browser does with it: follow it to the page.
	page, _ := os.ReadFile(launch)
	m := regexp.MustCompile(`http-equiv="refresh" content="0; url=([^"]+)"`).FindSubmatch(page)
	if m == nil || string(m[1]) != url {
		t.Fatalf("the page that opens the inspector leads to %q, want %s:\n%s", m, url, page)
	}
	resp, err := http.Get(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<title>hookwire inspect</title>") {
		t.Errorf("the page it leads to: status %d\n%s", resp.StatusCode, body)
	}
	// Served: the file has done its work, and is gone.
	if _, err := os.Lstat(launch); !os.IsNotExist(err) {
		t.Errorf("the page that opens the inspector is still there once served: %v", err)
	}
}

// --allow names the commands the page may run, as the page writes them;
// the page may run no other.
func TestInspectRunsOnlyTheCommandsOfAllow(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\ntouch \"$0.ran\"\nexit 1\n"
	listed, unlisted := filepath.Join(dir, "listed.sh"), filepath.Join(dir, "unlisted.sh")
	for _, p := range []string{listed, unlisted} {
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	url, _ := inspectProc(t, "", "--allow", "sh "+listed, "--allow", "  sh   "+unlisted+" extra ")
	api := strings.Replace(url, "/?token=", "/api/call?token=", 1)
	call := func(argv ...string) (int, string) {
		b, _ := json.Marshal(map[string]any{"command": argv, "method": "hook.before_tool", "params": map[string]any{}})
		resp, err := http.Post(api, "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(out)
	}
	if code, out := call("sh", unlisted); code != http.StatusForbidden || !strings.Contains(out, "--allow") {
		t.Errorf("a command not allowed: status %d, %s", code, out)
	}
	if _, err := os.Stat(unlisted + ".ran"); err == nil {
		t.Error("the page ran a command hookwire inspect was not started with")
	}
	if code, out := call("sh", listed); code != http.StatusOK {
		t.Errorf("an allowed command: status %d, %s", code, out)
	}
	if _, err := os.Stat(listed + ".ran"); err != nil {
		t.Errorf("the page did not run the command of --allow: %v", err)
	}
	if code, out := call("sh", unlisted, "extra"); code != http.StatusOK {
		t.Errorf("an allowed command written with more spaces: status %d, %s", code, out)
	}
}

// --allow-env and --allow-dir reach the inspector, which refuses to start
// with a variable that would let the page choose the program, or a folder
// that is not there.
func TestInspectRefusesAnAllowEnvThatChoosesTheProgram(t *testing.T) {
	t.Setenv("HOOKWIRE_INSPECT_SOCKET", filepath.Join(t.TempDir(), "hookwire", "inspect.sock"))
	for _, args := range [][]string{{"--allow-env", "LD_PRELOAD"}, {"--allow-env", "PATH"}, {"--allow-dir", filepath.Join(t.TempDir(), "gone")}} {
		code, _, errOut := hookwire(t, "", append([]string{"inspect"}, args...)...)
		if code == exitOK || !strings.Contains(errOut, args[0]) {
			t.Errorf("hookwire inspect %q: exit %d, %s; want a failure naming %s", args, code, errOut, args[0])
		}
	}
}
