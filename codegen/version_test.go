package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository in miniature: every file that carries the version, at 0.1.0.
var versioned = map[string]string{
	"LICENSE":                                 "MIT\n",
	"sdk-python/pyproject.toml":               "[project]\nname = \"hookwire\"\nversion = \"0.1.0\"\n\n[tool.x]\ntarget-version = \"py39\"\n",
	"sdk-node/package.json":                   "{\n  \"name\": \"hookwire\",\n  \"version\": \"0.1.0\",\n  \"devDependencies\": {\n    \"typescript\": \"5.9.3\"\n  }\n}\n",
	"sdk-node/package-lock.json":              "{\n  \"name\": \"hookwire\",\n  \"version\": \"0.1.0\",\n  \"packages\": {\n    \"\": {\n      \"name\": \"hookwire\",\n      \"version\": \"0.1.0\",\n    },\n    \"node_modules/typescript\": {\n      \"version\": \"5.9.3\",\n",
	"examples/a/typescript/package-lock.json": "{\n  \"name\": \"a\",\n  \"version\": \"0.0.0\",\n  \"packages\": {\n    \"../../../sdk-node\": {\n      \"name\": \"hookwire\",\n      \"version\": \"0.1.0\",\n",
	"core/go.mod":                             "module github.com/hookwire/hookwire/core\n\nrequire github.com/invopop/jsonschema v0.14.0\n\nrequire github.com/hookwire/hookwire/sdk-go v0.1.0\n",
	"bench/go.mod":                            "module github.com/hookwire/hookwire/bench\n\nrequire (\n\tgithub.com/hookwire/hookwire/core v0.1.0\n\tgithub.com/hookwire/hookwire/sdk-go v0.1.0\n)\n",
	"go.work":                                 "use ./core\n\nreplace (\n\tgithub.com/hookwire/hookwire/core v0.1.0 => ./core\n)\n",
}

func TestANewVersionIsStampedEverywhereAndNothingElseChanges(t *testing.T) {
	root := t.TempDir()
	for name, data := range versioned {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, versionFile), []byte("0.2.0-rc.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outs, err := stampVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range outs {
		got[o.Path] = string(o.Data)
	}
	for name, before := range versioned {
		if name == "LICENSE" {
			continue
		}
		after, ok := got[name]
		if !ok {
			t.Errorf("%s is not stamped", name)
			continue
		}
		// Only the hookwire versions change; the example's own version and
		// the other packages' stay.
		want := strings.NewReplacer("\"0.1.0\"", "\"0.2.0-rc.1\"", " v0.1.0", " v0.2.0-rc.1").Replace(before)
		if after != want {
			t.Errorf("%s stamped as\n%s\nwant\n%s", name, after, want)
		}
	}
	for name, want := range map[string]string{
		"sdk-go/version_gen.go":                   `const Version = "0.2.0-rc.1"`,
		"core/cmd/hookwire/version_gen.go":        `const version = "0.2.0-rc.1"`,
		"sdk-python/src/hookwire/_version_gen.py": `__version__ = "0.2.0-rc.1"`,
		"sdk-node/src/version.gen.ts":             `export const version = "0.2.0-rc.1";`,
		"sdk-python/LICENSE":                      "MIT\n",
		"sdk-node/LICENSE":                        "MIT\n",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, got[name])
		}
	}
}

func TestAVersionThatIsNotSemanticIsRefused(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, versionFile), []byte("v1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := stampVersion(root); err == nil || !strings.Contains(err.Error(), "not a semantic version") {
		t.Errorf("err = %v", err)
	}
}
