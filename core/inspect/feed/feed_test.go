package feed

import (
	"path/filepath"
	"testing"
	"time"
)

// A wire line's time, formatted a second at a time, reads back as the
// instant it was, to the nanosecond, across seconds, days and zones.
func TestAWireLineIsTimedToTheNanosecond(t *testing.T) {
	var s Session
	at := time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("here", 3600))
	for _, now := range []time.Time{at, at.Add(-999_999_998), at.Add(1), at.Add(time.Second + 120), at.Add(time.Second + 7)} {
		b := s.appendTime(nil, now)
		got, err := time.Parse(time.RFC3339Nano, string(b))
		if err != nil || !got.Equal(now) {
			t.Errorf("%v is written %s, read back as %v (%v)", now, b, got, err)
		}
	}
}

// The per-user folder: XDG_RUNTIME_DIR's wherever it is set; on Windows,
// which has no user id, hookwire in the user's %LOCALAPPDATA% (the
// temporary folder without it); elsewhere named by the user's id in the
// temporary folder.
func TestTheFolderOfSocketsOnEachPlatform(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(name string) string { return vars[name] }
	}
	local := `C:\Users\ada\AppData\Local`
	for _, c := range []struct {
		goos string
		vars map[string]string
		tmp  string
		uid  int
		want string
	}{
		{"windows", map[string]string{"LOCALAPPDATA": local}, local + `\Temp`, -1, filepath.Join(local, "hookwire")},
		{"windows", nil, `C:\Temp`, -1, filepath.Join(`C:\Temp`, "hookwire")},
		{"windows", map[string]string{"LOCALAPPDATA": local, "XDG_RUNTIME_DIR": "/run/user/1000"}, `C:\Temp`, -1, filepath.Join("/run/user/1000", "hookwire")},
		{"linux", map[string]string{"LOCALAPPDATA": local}, "/tmp", 1000, filepath.Join("/tmp", "hookwire-1000")},
		{"linux", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}, "/tmp", 1000, filepath.Join("/run/user/1000", "hookwire")},
		{"darwin", nil, "/var/folders/x/T", 501, filepath.Join("/var/folders/x/T", "hookwire-501")},
	} {
		if got := dirOf(c.goos, env(c.vars), c.tmp, c.uid); got != c.want {
			t.Errorf("%s with %v, temporary folder %s, user %d: %s, want %s", c.goos, c.vars, c.tmp, c.uid, got, c.want)
		}
	}
}
