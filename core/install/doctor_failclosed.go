package install

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// What doctor checks of Mistral Vibe's kind of agent: entries that fail
// open unless they say otherwise (Install.Strict), and folder trust kept
// as two lists of folders (Trust.Lists).

// checkStrict says, for an agent that runs the tool when a hook fails
// unless the entry says so (Install.Strict), whether each of the hook's
// entries for an event that guards a tool says it: without it, a bridge
// that is missing, killed or stopped at the agent's timeout lets the call
// run, and the hook would not guard what it is there to guard.
func (a *Agent) checkStrict(doc *document, h *Installed) []Finding {
	if a.Strict == "" {
		return nil
	}
	var out []Finding
	for _, event := range h.Events {
		if !a.facts().Events[event].Guard {
			continue
		}
		for _, p := range a.entries(doc, event, func(cmd string) bool { return cmd == h.Command }) {
			if p.value.strict {
				out = append(out, ok("the %s entry says %s = true: %s blocks the call when the hook fails", event, a.Strict, a.Name))
				continue
			}
			out = append(out, problem(fmt.Sprintf("add %s = true to the entry in %s, as hookwire install writes it", a.Strict, h.File),
				"the %s entry does not say %s = true: when the bridge fails (missing, killed, past %s's timeout), %s runs the tool call unguarded", event, a.Strict, a.Name, a.Name))
		}
	}
	return out
}

// trustFile is the agent's file of trust rules (Trust.File, beside its
// user's file): under home, or in the folder the variable of
// Install.UserFileEnv names, where it is set.
func (a *Agent) trustFile(home string) string {
	if v := os.Getenv(a.UserFileEnv); a.UserFileEnv != "" && v != "" {
		return filepath.Join(v, filepath.Base(a.Trust.File))
	}
	return filepath.Join(home, filepath.FromSlash(a.Trust.File))
}

// readTrustRules reads an agent's TOML file of trust rules: its root
// table, empty where there is no file; a file that cannot be read or does
// not parse is a problem with fix.
func readTrustRules(file, fix string) (map[string]any, *Finding) {
	data, err := read(file)
	if err != nil {
		f := problem(fix, "%s cannot be read: %v", file, err)
		return nil, &f
	}
	if data == nil {
		return nil, nil
	}
	v, err := decodeTOML(data)
	if err != nil {
		f := problem(fix, "%s does not parse: %v", file, err)
		return nil, &f
	}
	rules, _ := v.(map[string]any)
	return rules, nil
}

// checkTrustLists says whether dir is a folder the agent trusts, where its
// trust rules are two lists of folders, trusted and untrusted, in a TOML
// file (Trust.Lists): the closest folder named, dir itself or one that
// holds it, decides, trusted first; a folder none names is not trusted.
func (a *Agent) checkTrustLists(home, dir string) Finding {
	file := a.trustFile(home)
	fix := fmt.Sprintf("trust the folder when %s asks, or add %q to trusted in %s (%s)", a.Name, dir, file, a.Trust.Asks)
	lists, failed := readTrustRules(file, fix)
	if failed != nil {
		return *failed
	}
	named := func(list string, folder string) bool {
		items, _ := lists[list].([]any)
		return slices.Contains(items, any(folder))
	}
	folder := dir
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		folder = resolved // the agent names folders by their real path
	}
	for d := folder; ; d = filepath.Dir(d) {
		switch {
		case named("trusted", d):
			return ok("the folder is trusted (%s names %s)", file, d)
		case named("untrusted", d):
			return problem(fix, "the folder is not trusted (%s names %s untrusted): %s loads none of its project hooks", file, d, a.Name)
		}
		if filepath.Dir(d) == d {
			return problem(fix, "the folder is not trusted: %s loads no project hooks (%s) until it is", a.Name, a.Files[Project])
		}
	}
}
