package wirefmt

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendStringWritesWhatEncodingJSONReadsBack(t *testing.T) {
	for _, s := range []string{"", "hook.before_tool", `a "quoted" \ path`, "<script>&", "tab\there", "naïve ☃", "\x00\x7f", "\xff"} {
		got := AppendString([]byte("x"), s)
		if got[0] != 'x' {
			t.Fatalf("AppendString(%q) lost what was there: %q", s, got)
		}
		var back string
		if err := json.Unmarshal(got[1:], &back); err != nil {
			t.Fatalf("AppendString(%q) = %s, not JSON: %v", s, got[1:], err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); back != want {
			t.Errorf("AppendString(%q) reads back as %q", s, back)
		}
		if strings.ContainsAny(string(got[1:]), "<>&") {
			t.Errorf("AppendString(%q) = %s: <, > and & are escaped as the wire's encoder does", s, got[1:])
		}
	}
}

func TestAppendStringAllocatesNothingForAPlainName(t *testing.T) {
	b := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { b = AppendString(b[:0], "hook.before_tool") }); n != 0 {
		t.Errorf("AppendString of a method name allocates %v times", n)
	}
}

func TestClipKeepsWhatFitsAndCutsTheRestAtACharacter(t *testing.T) {
	if got := Clip("short", 10); got != "short" {
		t.Errorf("Clip of a string that fits = %q", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Clip(long, 51)
	if !utf8.ValidString(got) {
		t.Errorf("Clip cut a character in two: %q", got)
	}
	if !strings.HasPrefix(got, strings.Repeat("é", 25)+"…") || !strings.HasSuffix(got, "(200 bytes)") {
		t.Errorf("Clip = %q, want 25 characters, an ellipsis and the length", got)
	}
}
