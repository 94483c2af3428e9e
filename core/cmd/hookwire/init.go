package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"
)

// The files of a new hook project, one folder per language and common/ for
// all three. Each is a template named after its file with ".tmpl" added,
// so that no Go, Python or TypeScript tool takes it for source.
//
//go:embed all:initdata
var initData embed.FS

var initLangs = []string{"python", "typescript", "go"}

var initCommand = command{
	name: "init",
	args: "--lang python|typescript|go [--name NAME] [--sdk CHECKOUT] DIR",
	summary: `Writes a new hook project into DIR, which must be empty or missing: a hook
with a plugin tool (word_count, offered to the LLM and answered by the hook)
and a guard (it denies reading files that may hold secrets), its hooks.json,
a scenario.json to play with "hookwire run", a test in the language's own
runner, and a README with the commands to run, test and check it.

Until the SDKs are published, --sdk names a checkout of the hookwire
repository: the project then uses the SDK from that checkout (Python through
PYTHONPATH, TypeScript as a file: dependency, Go through a replace
directive). Without --sdk, it depends on the published SDK of this version.`,
	flags: func(fs *flag.FlagSet) func([]string, env) int {
		lang := fs.String("lang", "", "the hook's language: python, typescript or go")
		name := fs.String("name", "", "the hook's name (default: DIR's base name)")
		sdk := fs.String("sdk", "", "use the SDK of the hookwire `checkout` at this path")
		return func(args []string, e env) int {
			if len(args) != 1 {
				return e.fail(exitUsage, "init", errors.New("need exactly one DIR (see hookwire init --help)"))
			}
			p, err := newProject(*lang, *name, *sdk, args[0])
			if err != nil {
				return e.fail(exitUsage, "init", err)
			}
			written, err := p.write(args[0])
			if err != nil {
				return e.fail(exitFail, "init", err)
			}
			for _, f := range written {
				fmt.Fprintf(e.stdout, "wrote %s\n", filepath.Join(args[0], f))
			}
			fmt.Fprintf(e.stdout, "\n%s: see %s for how to run, test and check the hook.\n", p.Name, filepath.Join(args[0], "README.md"))
			return exitOK
		}
	},
}

// project is what the templates of a new hook project are filled with.
type project struct {
	Lang    string
	Name    string
	Version string
	// SDK is the absolute path of a hookwire checkout, or empty for the
	// published SDK.
	SDK string
	// Dir is the absolute path of the project's folder, for the commands
	// an agent runs from a working folder of its own.
	Dir string
}

var validHookName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

func newProject(lang, name, sdk, dir string) (project, error) {
	p := project{Lang: lang, Name: name, Version: version}
	if !slices.Contains(initLangs, lang) {
		return p, fmt.Errorf("--lang: need one of %s, not %q", strings.Join(initLangs, ", "), lang)
	}
	if p.Name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return p, err
		}
		p.Name = strings.ToLower(filepath.Base(abs))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return p, err
	}
	p.Dir = abs
	if !validHookName.MatchString(p.Name) {
		return p, fmt.Errorf("%q cannot name a hook (a lower-case letter, then letters, digits, - or _): pass --name", p.Name)
	}
	if sdk != "" {
		abs, err := filepath.Abs(sdk)
		if err != nil {
			return p, err
		}
		// The file each language's project uses, so that a wrong path fails
		// here rather than in the project's first build.
		marker := map[string]string{"python": "sdk-python/src/hookwire/__init__.py", "typescript": "sdk-node/package.json", "go": "sdk-go/go.mod"}[lang]
		if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(marker))); err != nil {
			return p, fmt.Errorf("--sdk %s: no %s there: --sdk names a checkout of the hookwire repository", sdk, marker)
		}
		p.SDK = abs
	}
	return p, nil
}

// write fills the templates into dir and returns the files written,
// relative to dir. It writes nothing into a folder that holds anything.
func (p project) write(dir string) ([]string, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s is not empty: a new hook project needs an empty or missing folder", dir)
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, root := range []string{"initdata/common", "initdata/" + p.Lang} {
		err := fs.WalkDir(initData, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			text, err := initData.ReadFile(name)
			if err != nil {
				return err
			}
			t, err := template.New(path.Base(name)).Funcs(template.FuncMap{"json": jsonString, "sdk": p.sdkPath, "sh": shellQuote, "agentCommand": p.agentCommand}).Parse(string(text))
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := t.Execute(&b, p); err != nil {
				return err
			}
			rel := strings.TrimSuffix(strings.TrimPrefix(name, root+"/"), ".tmpl")
			files = append(files, file{rel, b.Bytes()})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var written []string
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(target, f.data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.name)
	}
	return written, nil
}

// shellQuote quotes a word for sh, which the agents run a hook's command with.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// agentCommand is the command an agent's settings name for the hook
// through the bridge: absolute paths, so that it works from whatever
// folder the agent runs it in, and the interpreter of the project's
// virtual environment for Python, whose SDK the agent's python3 lacks.
func (p project) agentCommand(agent string) string {
	var hook []string
	switch p.Lang {
	case "python":
		hook = []string{filepath.Join(p.Dir, ".venv", "bin", "python"), filepath.Join(p.Dir, "hook.py")}
		if p.SDK != "" {
			hook[0] = "python3"
		}
	case "typescript":
		hook = []string{"node", filepath.Join(p.Dir, "dist", "main.js")}
	case "go":
		hook = []string{filepath.Join(p.Dir, p.Name)}
	}
	words := []string{"hookwire-bridge", agent, "--"}
	for _, w := range hook {
		words = append(words, shellQuote(w))
	}
	command := strings.Join(words, " ")
	if p.Lang == "python" && p.SDK != "" {
		command = "PYTHONPATH=" + shellQuote(p.sdkPath("sdk-python/src")) + " " + command
	}
	return command
}

// sdkPath is a path inside the SDK checkout, such as "sdk-python/src".
func (p project) sdkPath(rel string) string {
	return filepath.Join(p.SDK, filepath.FromSlash(rel))
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
