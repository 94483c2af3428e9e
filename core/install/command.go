package install

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// BridgeName is the bridge's program, which agents start for every event.
const BridgeName = "hookwire-bridge"

// FindBridge is the absolute path of hookwire-bridge: next to the program
// self (the running hookwire), or else on PATH.
func FindBridge(self string) (string, error) {
	if self != "" {
		next := filepath.Join(filepath.Dir(self), BridgeName)
		if info, err := os.Stat(next); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return next, nil
		}
	}
	path, err := exec.LookPath(BridgeName)
	if err != nil {
		return "", fmt.Errorf("%s is neither next to hookwire nor on PATH: install it (from dist/, or go install ./core/cmd/hookwire-bridge) into the folder of hookwire, or name it with --bridge", BridgeName)
	}
	return filepath.Abs(path)
}

// ResolveHook makes a hook's command work from any folder, as agents run
// it from their own: the program by its absolute path (looked up on PATH
// when it is a bare name; a symbolic link is kept as it is, so that a
// virtual environment's python stays that environment's), and each
// argument that names a file in dir by its absolute path.
func ResolveHook(argv []string, dir string) ([]string, error) {
	if len(argv) == 0 {
		return nil, errors.New("no hook command")
	}
	out := make([]string, len(argv))
	prog := argv[0]
	switch {
	case filepath.IsAbs(prog):
	case strings.ContainsRune(prog, filepath.Separator):
		prog = filepath.Join(dir, prog)
	default:
		found, err := exec.LookPath(prog)
		if err != nil {
			return nil, fmt.Errorf("the hook's program %q is not on PATH: name it by its path", prog)
		}
		if prog, err = filepath.Abs(found); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(prog); err != nil {
		return nil, fmt.Errorf("the hook's program: %v", err)
	}
	out[0] = prog
	for i, arg := range argv[1:] {
		out[i+1] = arg
		if strings.HasPrefix(arg, "-") || filepath.IsAbs(arg) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, arg)); err == nil {
			out[i+1] = filepath.Join(dir, arg)
		}
	}
	return out, nil
}

// Command is the line install writes for the agent to run with sh -c:
// the bridge, the agent, "--" and the hook, each word quoted for sh.
func Command(bridgePath, agent string, hook []string) string {
	words := []string{bridgePath, agent, "--"}
	words = append(words, hook...)
	for i, w := range words {
		words[i] = quote(w)
	}
	return strings.Join(words, " ")
}

// quote quotes a word for sh, leaving a plain one as it is.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Bridged is a command line that runs a hook through the bridge.
type Bridged struct {
	// Bridge is the bridge's program as the line names it.
	Bridge string
	// Installed is true when the line is one install writes: the bridge
	// by its absolute path.
	Installed bool
	Agent     string
	// Deadline is the line's --deadline, zero when it has none.
	Deadline time.Duration
	// Hook is the hook's command.
	Hook []string
	// Env are the variables the line sets before its program.
	Env map[string]string
}

// ParseCommand reads a command line as sh would, with the variables of env
// (and none else) expanded, and says whether it runs hookwire-bridge (or
// "hookwire bridge", or a bridge of any name in a line install recorded,
// of a file doctor has read).
func ParseCommand(line string, env map[string]string) (Bridged, bool) {
	var b Bridged
	file, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil || len(file.Stmts) != 1 {
		return b, false
	}
	call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return b, false
	}
	pairs := []string{}
	for k, v := range env {
		pairs = append(pairs, k+"="+v)
	}
	cfg := &expand.Config{
		Env: expand.ListEnviron(pairs...),
		// A word made by running a command is not read: a command
		// substitution is an error when CmdSubst is nil, but a process
		// substitution panics, so it is refused here.
		ProcSubst: func(*syntax.ProcSubst) (string, error) {
			return "", errors.New("a process substitution is not read")
		},
	}
	b.Env = map[string]string{}
	for _, a := range call.Assigns {
		if a.Value == nil {
			continue
		}
		v, err := expand.Literal(cfg, a.Value)
		if err != nil {
			return b, false
		}
		b.Env[a.Name.Value] = v
	}
	words, err := expand.Fields(cfg, call.Args...)
	if err != nil || len(words) == 0 {
		return b, false
	}
	b.Bridge = words[0]
	switch {
	case filepath.Base(words[0]) == BridgeName, isRecorded(line):
		// A line install recorded runs the bridge whatever its name:
		// --bridge hookwire-bridge-0.1.0-linux-amd64 wrote it.
		words = words[1:]
		b.Installed = filepath.IsAbs(b.Bridge)
	case filepath.Base(words[0]) == "hookwire" && len(words) > 1 && words[1] == "bridge":
		words = words[2:]
	default:
		return b, false
	}
	for len(words) > 0 && strings.HasPrefix(words[0], "-") && words[0] != "--" {
		name, value, hasValue := strings.Cut(strings.TrimLeft(words[0], "-"), "=")
		words = words[1:]
		if !hasValue && name != "env-clear" && len(words) > 0 {
			value, words = words[0], words[1:]
		}
		if name == "deadline" {
			b.Deadline, _ = time.ParseDuration(value)
		}
	}
	if len(words) < 3 || words[1] != "--" {
		return b, false
	}
	b.Agent, b.Hook = words[0], words[2:]
	return b, true
}
