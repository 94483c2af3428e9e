//go:build mage

// The release: one version, the packages a user installs, and their test.

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func init() {
	// The files that carry the version of VERSION: gen writes them, check
	// compares them. The copies of LICENSE ship inside the packages.
	generated = append(generated,
		"sdk-go/version_gen.go",
		"core/cmd/hookwire/version_gen.go",
		"core/cmd/hookwire-bridge/version_gen.go",
		"sdk-python/src/hookwire/_version_gen.py",
		"sdk-node/src/version.gen.ts",
		"sdk-python/pyproject.toml",
		"sdk-node/package.json",
		"sdk-node/package-lock.json",
		"sdk-python/LICENSE",
		"sdk-node/LICENSE",
		"go.work",
	)
	generated = append(generated, glob("examples/*/typescript/package-lock.json")...)
	generated = append(generated, glob("*/go.mod")...)
}

// platforms are the systems the hookwire binaries are built for.
var platforms = []struct{ goos, goarch string }{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Dist writes the release into dist/: the hookwire CLI for Linux, macOS and
// Windows on amd64 and arm64, the Python wheel and sdist, the npm tarball,
// and SHA256SUMS; then installs each into an empty folder and runs a hook
// with it (examples/install_test.go). Not part of ci, which tests the same
// install with this machine's artifacts only.
func Dist() error {
	// Only what the packages are built with: the agents and the browser
	// the tests run are no part of a release.
	if err := buildDeps(); err != nil {
		return err
	}
	raw, err := os.ReadFile("VERSION")
	if err != nil {
		return err
	}
	version := strings.TrimSpace(string(raw))
	if err := os.RemoveAll("dist"); err != nil {
		return err
	}
	if err := os.MkdirAll("dist", 0o755); err != nil {
		return err
	}
	dist, _ := filepath.Abs("dist")
	for _, p := range platforms {
		// hookwire-bridge is `hookwire bridge` alone, which starts faster.
		for _, command := range []string{"hookwire", "hookwire-bridge"} {
			name := fmt.Sprintf("%s-%s-%s-%s", command, version, p.goos, p.goarch)
			if p.goos == "windows" {
				name += ".exe"
			}
			cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dist, name), "./cmd/"+command)
			cmd.Dir = "core"
			cmd.Env = append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=0")
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	// The build backend comes pinned in .venv, so the build needs no network.
	if err := run(".", venvBin("python"), "-m", "build", "--no-isolation", "--outdir", dist, "sdk-python"); err != nil {
		return err
	}
	// npm pack builds the package first (its prepare script).
	if err := run("sdk-node", "npm", "pack", "--pack-destination", dist); err != nil {
		return err
	}
	if err := writeSums(dist); err != nil {
		return err
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestInstall", ".")
	cmd.Dir = "examples"
	cmd.Env = append(os.Environ(), "HOOKWIRE_DIST="+dist)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// writeSums writes SHA256SUMS in the form sha256sum -c reads.
func writeSums(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}
