// Command codegen renders the typed protocol code of every SDK, and the
// protocol reference, from the JSON Schema and the method table in
// schema/. Run it from this directory as `go run . REPO_ROOT`;
// `go tool mage gen` does, after it has regenerated the schema.
//
// README.md explains every rendering decision.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// The inputs, relative to the repository root.
const (
	schemaPath  = "schema/hookwire.schema.json"
	methodsPath = "schema/methods.json"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run . REPO_ROOT")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "codegen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	outs, err := generate(root, schemaPath, methodsPath)
	if err != nil {
		return err
	}
	versioned, err := stampVersion(root)
	if err != nil {
		return err
	}
	outs = append(outs, versioned...)
	tools, err := renderTools(root)
	if err != nil {
		return err
	}
	outs = append(outs, tools...)
	table, err := os.ReadFile(filepath.Join(root, lifecycleFile))
	if err != nil {
		return err
	}
	lifecycle, err := generateLifecycle(root, table)
	if err != nil {
		return err
	}
	outs = append(outs, lifecycle...)
	plugin, err := renderPlugin(root)
	if err != nil {
		return err
	}
	outs = append(outs, plugin...)
	for _, o := range outs {
		path := filepath.Join(root, filepath.FromSlash(o.Path))
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, o.Data) {
			continue // as it was: its time stays, and with it what was built from it (bytecode, tsc -b)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, o.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate loads the two inputs, named relative to root, and renders them.
func generate(root, schemaFile, methodsFile string) ([]Output, error) {
	schemaJSON, err := os.ReadFile(filepath.Join(root, schemaFile))
	if err != nil {
		return nil, err
	}
	methodsJSON, err := os.ReadFile(filepath.Join(root, methodsFile))
	if err != nil {
		return nil, err
	}
	m, err := Load(schemaJSON, methodsJSON, schemaFile, methodsFile)
	if err != nil {
		return nil, err
	}
	// The shared test vectors live next to the schema.
	if m.Examples, err = loadExamples(filepath.Join(root, filepath.Dir(schemaFile), "testdata", "valid"), m); err != nil {
		return nil, err
	}
	return Render(m)
}

// generateLifecycle renders a lifecycle table against the method table of
// root.
func generateLifecycle(root string, table []byte) ([]Output, error) {
	schemaJSON, err := os.ReadFile(filepath.Join(root, schemaPath))
	if err != nil {
		return nil, err
	}
	methodsJSON, err := os.ReadFile(filepath.Join(root, methodsPath))
	if err != nil {
		return nil, err
	}
	m, err := Load(schemaJSON, methodsJSON, schemaPath, methodsPath)
	if err != nil {
		return nil, err
	}
	return renderLifecycle(m, table)
}
