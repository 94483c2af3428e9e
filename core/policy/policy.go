// Package policy is a guard with no code: rules in CEL (cel.dev/cel-go)
// over a tool call in the words every agent shares (its canonical kind,
// its command as the shell would run it, its path or URL, its arguments),
// each of which denies the call, leaves it to the user, lets it through or
// rewrites it, with a message. A policy file is JSON with comments:
//
//	{
//	  "rules": [
//	    {"when": "commands.exists(c, c.name == 'rm' && c.may_have_flag('r', 'recursive'))",
//	     "deny": "no recursive deletes"}
//	  ],
//	  "tests": [
//	    {"tool": "Bash", "arguments": {"command": "rm -rf /"}, "expect": "deny"}
//	  ]
//	}
//
// The first rule whose when holds decides. Every expression is compiled
// and type-checked when the file is loaded, and a fault is refused then,
// with its FILE:LINE:COL; a rule that still fails on a call (a key the
// call lacks, a cost over the limit) denies it: a guard does not fail open.
package policy

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookwire/hookwire/core/internal/jsonc"
)

// MaxFileSize bounds a policy file.
const MaxFileSize = 1 << 20

// The effects a rule can have, and what a test case expects when no rule
// decides ("continue").
const (
	Deny     = "deny"
	Ask      = "ask"
	Allow    = "allow"
	Rewrite  = "rewrite"
	Continue = "continue"
)

// A Policy is a policy file's rules, compiled, and its test cases.
type Policy struct {
	File  string
	Rules []*Rule
	Tests []Case
}

// A Rule is one rule of a policy.
type Rule struct {
	// Name names the rule in messages; by default "rule N" (from 1).
	Name string
	// At is where the rule is: FILE:LINE:COL.
	At     string
	Effect string
	// message is what the agent, and the model, are told.
	message message
	when    *celProgram
	// rewrite are the new command, path, url or pattern, by member.
	rewrite map[string]*celProgram
}

// A Case is a test case of a policy: a call and what must become of it.
type Case struct {
	Name      string
	At        string
	Tool      string
	Arguments map[string]any
	// Expect is an effect, or "continue" for no rule.
	Expect string
	// Rule, when set, is the rule that must decide.
	Rule string
	// Becomes, for a rewrite, are the members the call must get.
	Becomes map[string]string
}

// Load reads and compiles the policy file at path.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readBounded(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse compiles a policy file's bytes; file names it in messages.
func Parse(file string, data []byte) (*Policy, error) {
	root, err := jsonc.Parse(data, MaxFileSize, "keep one of them")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	r := reader{file: file, data: data}
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, r.fault(&root, "a policy is an object with \"rules\" and, to test them, \"tests\"")
	}
	p := &Policy{File: file}
	env, err := newEnv()
	if err != nil {
		return nil, err
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		switch name := jsonc.Text(&m.Name); name {
		case "rules":
			err = r.each(&m.Value, "rule", func(v *hujson.Value, n int) error {
				rule, err := r.rule(env, v, n)
				p.Rules = append(p.Rules, rule)
				return err
			})
		case "tests":
			err = r.each(&m.Value, "test", func(v *hujson.Value, n int) error {
				c, err := r.testCase(v, n)
				p.Tests = append(p.Tests, c)
				return err
			})
		default:
			err = r.fault(&m.Name, fmt.Sprintf("unknown key %q: a policy has \"rules\" and \"tests\"", name))
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.Rules) == 0 {
		return nil, r.fault(&root, `no "rules": a policy without rules decides nothing`)
	}
	return p, p.checkTests()
}

// checkTests refuses a case that names a rule the policy has not.
func (p *Policy) checkTests() error {
	for _, c := range p.Tests {
		if c.Rule != "" && !slices.ContainsFunc(p.Rules, func(r *Rule) bool { return r.Name == c.Rule }) {
			return fmt.Errorf("%s: the case names the rule %q, which the policy has not", c.At, c.Rule)
		}
	}
	return nil
}

// reader reads the members of a policy file, saying where each fault is.
type reader struct {
	file string
	data []byte
}

// at is where v is: FILE:LINE:COL.
func (r reader) at(v *hujson.Value) string {
	return fmt.Sprintf("%s:%d:%d", r.file, jsonc.Line(r.data, v.StartOffset), jsonc.Column(r.data, v.StartOffset))
}

func (r reader) fault(v *hujson.Value, msg string) error { return errors.New(r.at(v) + ": " + msg) }

// each calls fn for each object of the array v.
func (r reader) each(v *hujson.Value, what string, fn func(v *hujson.Value, n int) error) error {
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		return r.fault(v, fmt.Sprintf("a list of %ss is expected", what))
	}
	for i := range arr.Elements {
		el := &arr.Elements[i]
		if _, ok := el.Value.(*hujson.Object); !ok {
			return r.fault(el, fmt.Sprintf("a %s is an object", what))
		}
		if err := fn(el, i+1); err != nil {
			return err
		}
	}
	return nil
}

// members are an object's members by name, each with its value.
func members(v *hujson.Value) map[string]*hujson.Value {
	obj := v.Value.(*hujson.Object)
	out := make(map[string]*hujson.Value, len(obj.Members))
	for i := range obj.Members {
		out[jsonc.Text(&obj.Members[i].Name)] = &obj.Members[i].Value
	}
	return out
}

// str is a member that must be a string.
func (r reader) str(v *hujson.Value, key string) (string, error) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", r.fault(v, fmt.Sprintf("%q is a string", key))
	}
	return lit.String(), nil
}

// unknownKeys refuses a member not in allowed.
func (r reader) unknownKeys(v *hujson.Value, what string, allowed ...string) error {
	obj := v.Value.(*hujson.Object)
	for i := range obj.Members {
		if name := jsonc.Text(&obj.Members[i].Name); !slices.Contains(allowed, name) {
			return r.fault(&obj.Members[i].Name, fmt.Sprintf("unknown key %q: a %s has %s", name, what, strings.Join(allowed, ", ")))
		}
	}
	return nil
}
