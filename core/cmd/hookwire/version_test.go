package main

import (
	"os"
	"strings"
	"testing"

	sdk "github.com/hookwire/hookwire/sdk-go"
)

func TestVersionPrintsTheOneVersionOfTheCLIAndTheSDKs(t *testing.T) {
	raw, err := os.ReadFile("../../../VERSION")
	if err != nil {
		t.Fatal(err)
	}
	want := "hookwire " + strings.TrimSpace(string(raw)) + "\n"
	for _, arg := range []string{"--version", "-version", "version"} {
		code, out, errOut := hookwire(t, "", arg)
		if code != exitOK || out != want || errOut != "" {
			t.Errorf("hookwire %s: exit %d, stdout %q, stderr %q; want exit 0, stdout %q", arg, code, out, errOut, want)
		}
	}
	if "hookwire "+sdk.Version+"\n" != want {
		t.Errorf("the Go SDK says %s, the CLI %s", sdk.Version, want)
	}
}
