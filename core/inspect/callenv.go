package inspect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
)

// The composer's folder and environment come from the page, which whoever
// holds the token may write: neither may change which program an allowed
// command runs. A relative command (python3 hook.py) is another program in
// another folder, so the folder is one the user named (Options.AllowDirs),
// or the inspector's own. A variable may change the program as much (PATH,
// LD_PRELOAD, PYTHONPATH, NODE_OPTIONS; HOME, which moves Python's
// usercustomize; GIT_CONFIG_*, which makes git run a command), and no list
// of such names is ever complete: the page sets only the variables the
// user named (Options.AllowEnv), and the names known to choose code are
// refused even there.

// envName is a variable's name as a POSIX shell takes it: what every
// system passes on unchanged.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// codeVars are variables that choose the program a command runs or the
// code it loads, by name; codePrefixes by the start of their name. They
// are refused by --allow-env, in any case (Windows reads Path as PATH).
var (
	codeVars = []string{
		"PATH", "PATHEXT", "HOME", "USERPROFILE", "APPDATA", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
		"ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "IFS", "CDPATH", "PS4", "PROMPT_COMMAND",
		"GCONV_PATH", "LOCPATH", "NLSPATH",
		"CLASSPATH", "GEM_HOME", "GEM_PATH", "LUA_PATH", "LUA_CPATH", "TCLLIBPATH", "R_PROFILE", "R_PROFILE_USER",
		"GOFLAGS", "GOROOT", "GOPATH", "GOTOOLCHAIN", "CARGO_HOME", "RUSTC_WRAPPER", "DENO_DIR",
		"COMSPEC", "SYSTEMROOT", "WINDIR",
	}
	codePrefixes = []string{
		"LD_", "DYLD_", "PYTHON", "VIRTUAL_ENV", "CONDA", "UV_", "PIP_", "NODE_", "NPM_", "YARN_", "BUN_",
		"PERL", "RUBY", "BUNDLE_", "JAVA_", "_JAVA_", "JDK_", "GIT_", "BASH_FUNC_", "MALLOC_", "GLIBC_",
	}
)

// codeVar reports whether a variable, by name, may choose the program or
// its code.
func codeVar(name string) bool {
	up := strings.ToUpper(name)
	return slices.Contains(codeVars, up) || slices.ContainsFunc(codePrefixes, func(p string) bool { return strings.HasPrefix(up, p) })
}

// checkAllowEnv refuses a name of --allow-env that is not a variable's
// name, or that would let the page choose the program.
func checkAllowEnv(names []string) error {
	for _, n := range names {
		if !envName.MatchString(n) {
			return fmt.Errorf("--allow-env %q: not a variable's name (letters, digits, _)", n)
		}
		if codeVar(n) {
			return fmt.Errorf("--allow-env %s: refused, it chooses the program a command runs or the code it loads, which the page must not choose", n)
		}
	}
	return nil
}

// resolveDirs is each folder of --allow-dir as it is, links resolved,
// with the inspector's own folder, where a call runs when the page names
// none.
func resolveDirs(dirs []string) ([]string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range append([]string{wd}, dirs...) {
		r, err := realDir(d)
		if err != nil {
			return nil, fmt.Errorf("--allow-dir %s: %w", d, err)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// realDir is a folder's absolute path with its links resolved; an error
// if it is not an existing folder.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(r)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errors.New("not a folder")
	}
	return r, nil
}

// callDir is the folder a call from the page runs in: "" for the
// inspector's own, else one of the allowed folders, by the path the user
// gave or any path that resolves to it; it returns the resolved path,
// which the hook is started in.
func (s *Server) callDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("the folder %q is not an absolute path", dir)
	}
	r, err := realDir(dir)
	if err != nil {
		return "", fmt.Errorf("the folder %s: %w", dir, err)
	}
	if !slices.Contains(s.dirs, r) {
		return "", fmt.Errorf("refused: the composer runs a hook only in the folders hookwire inspect was started with; to run it in this one, start it with --allow-dir %q (it may run in: %s)", dir, strings.Join(s.dirs, "; "))
	}
	return r, nil
}

// callEnv reads the page's NAME=value entries: each a variable the user
// named with --allow-env, once.
func (s *Server) callEnv(entries []string) (map[string]string, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	env := map[string]string{}
	for _, kv := range entries {
		name, value, ok := strings.Cut(kv, "=")
		switch {
		case !ok || !envName.MatchString(name):
			return nil, fmt.Errorf("the variable %q is not NAME=value with a name of letters, digits and _", wirefmt.Clip(kv, 80))
		case strings.IndexByte(value, 0) >= 0:
			return nil, fmt.Errorf("the variable %s holds a NUL byte", name)
		case codeVar(name):
			return nil, fmt.Errorf("refused: %s chooses the program a command runs or the code it loads; the page never sets it", name)
		case !slices.Contains(s.opts.AllowEnv, name):
			msg := fmt.Sprintf("refused: the composer sets only the variables hookwire inspect was started with; to set this one, start it with --allow-env %s", name)
			if len(s.opts.AllowEnv) > 0 {
				msg += " (it may set: " + strings.Join(s.opts.AllowEnv, ", ") + ")"
			}
			return nil, errors.New(msg)
		}
		if _, twice := env[name]; twice {
			return nil, fmt.Errorf("the variable %s is given twice", name)
		}
		env[name] = value
	}
	return env, nil
}
