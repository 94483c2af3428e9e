package examples

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookwireOnly are the example hooks files that PicoClaw refuses, each with
// the README that says they are for hookwire's runtime, and why.
var hookwireOnly = map[string]string{
	"lifecycle-audit-log/typescript/hooks.json": "lifecycle-audit-log/typescript/README.md",
	"skill-prompts/hooks.json":                  "skill-prompts/README.md",
	"skill-prompts/hooks.process.json":          "skill-prompts/README.md",
}

// Every example hooks file loads in PicoClaw as it is: `hookwire validate
// --host picoclaw` says nothing of it (no refusal, and no warning that
// PicoClaw would rewrite it), but the few that are for hookwire's runtime,
// which PicoClaw refuses and whose README says so.
func TestExamplesHooksFilesLoadInPicoClaw(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".venv" || d.Name() == "skills"):
			return filepath.SkipDir // a skill's hooks.json is no host's configuration
		case !d.IsDir() && strings.HasPrefix(d.Name(), "hooks") && strings.HasSuffix(d.Name(), ".json"):
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil || len(files) < 15 {
		t.Fatalf("found %d hooks files (%v)", len(files), err)
	}
	for _, file := range files {
		out, err := exec.Command(cli, "validate", "--host", "picoclaw", file).CombinedOutput()
		readme, only := hookwireOnly[file]
		switch {
		case !only && (err != nil || len(out) > 0):
			t.Errorf("%s: PicoClaw should load it as it is: %v\n%s", file, err, out)
		case only && (err == nil || !strings.Contains(string(out), "PicoClaw refuses")):
			t.Errorf("%s: listed as refused by PicoClaw, but validate --host picoclaw: %v\n%s", file, err, out)
		case only:
			text, err := os.ReadFile(readme)
			if err != nil || !strings.Contains(strings.Join(strings.Fields(string(text)), " "), "for hookwire's runtime, not PicoClaw") {
				t.Errorf("%s: PicoClaw refuses %s, and the README does not say it is for hookwire's runtime, not PicoClaw", readme, file)
			}
		}
	}
}

// The READMEs of the plugin tool examples say that PicoClaw reverts a tool
// added in before_llm, and what to do instead.
func TestExamplesPluginToolReadmesSayPicoClawRevertsTheTool(t *testing.T) {
	for _, readme := range []string{"README.md", "weather/README.md", "weather/go/README.md", "weather/typescript/README.md"} {
		text, err := os.ReadFile(readme)
		flat := strings.Join(strings.Fields(string(text)), " ")
		if err != nil || !strings.Contains(flat, "PicoClaw") || !strings.Contains(flat, "revert") || !strings.Contains(flat, "hookwire mcp") {
			t.Errorf("%s: want it to say that PicoClaw reverts the tool and to serve it with hookwire mcp (%v)", readme, err)
		}
	}
}
