//go:build unix

package feed

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nobody is the user a test as root plays another local user with.
const nobody = 65534

// listenEnv makes the test binary a listener of another user's (listen).
const listenEnv = "HOOKWIRE_FEED_TEST_LISTEN"

func TestMain(m *testing.M) {
	if path := os.Getenv(listenEnv); path != "" {
		os.Exit(listen(path))
	}
	os.Exit(m.Run())
}

// listen is the child process of TestAProducerSendsNothingToAListenerOfAnotherUser:
// it listens at path, says so, and says how many bytes the first
// connection sent before it closed (every wait bounded).
func listen(path string) int {
	ln, err := net.Listen("unix", path)
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	fmt.Println("listening")
	ln.(*net.UnixListener).SetDeadline(time.Now().Add(20 * time.Second))
	conn, err := ln.Accept()
	if err != nil {
		fmt.Println("accept:", err)
		return 1
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, err := io.Copy(io.Discard, conn)
	fmt.Printf("received %d bytes (%v)\n", n, err)
	return 0
}

// warnings is a logger that keeps what is logged.
func warnings() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

// privateDir is a folder of this user's, mode 0700, as the inspector makes.
func privateDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "hookwire")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// In each case an inspector of this user's listens where the producer
// dials, but something about the folder or the socket says another user
// could be there instead: the producer does not even connect, and says
// why, once.
func TestAProducerSendsNothingToAnInspectorItCannotTrust(t *testing.T) {
	root := os.Getuid() == 0
	cases := []struct {
		name string
		// socket sets up the folder, and returns the socket to listen on
		// and the one the producer dials.
		socket func(t *testing.T) (listen, dial string)
		// edit changes things once the listener is there.
		edit func(t *testing.T, sock string)
		want string
	}{
		{"a folder others may enter (0755)", func(t *testing.T) (string, string) {
			dir := privateDir(t)
			os.Chmod(dir, 0o755)
			return filepath.Join(dir, SocketName), filepath.Join(dir, SocketName)
		}, nil, "may be entered by other users (mode 0755): it must be 0700"},
		{"a folder others may write (0733)", func(t *testing.T) (string, string) {
			dir := privateDir(t)
			os.Chmod(dir, 0o733)
			return filepath.Join(dir, SocketName), filepath.Join(dir, SocketName)
		}, nil, "it must be 0700"},
		{"a symbolic link to a folder", func(t *testing.T) (string, string) {
			dir := privateDir(t)
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, SocketName), filepath.Join(link, SocketName)
		}, nil, "is a symbolic link, not a folder"},
	}
	if root {
		cases = append(cases, struct {
			name   string
			socket func(t *testing.T) (listen, dial string)
			edit   func(t *testing.T, sock string)
			want   string
		}{"a folder of another user's (0700)", func(t *testing.T) (string, string) {
			dir := privateDir(t)
			if err := os.Chown(dir, nobody, nobody); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, SocketName), filepath.Join(dir, SocketName)
		}, nil, fmt.Sprintf("belongs to user %d, not to this user (0)", nobody)}, struct {
			name   string
			socket func(t *testing.T) (listen, dial string)
			edit   func(t *testing.T, sock string)
			want   string
		}{"a socket of another user's in a folder of this user's", func(t *testing.T) (string, string) {
			dir := privateDir(t)
			return filepath.Join(dir, SocketName), filepath.Join(dir, SocketName)
		}, func(t *testing.T, sock string) {
			if err := os.Lchown(sock, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}, fmt.Sprintf("inspect.sock belongs to user %d", nobody)})
	} else {
		// Not root: no file can be given to another user here; the owner
		// check is run on what Lstat would say of one instead.
		t.Log("not root: the folder and socket of another user are checked on their Lstat alone")
		fi, err := os.Lstat(privateDir(t))
		if err != nil {
			t.Fatal(err)
		}
		other := fakeOwner{fi, uint32(os.Getuid() + 1)}
		if err := dirProblem("d", other, os.Getuid()); err == nil || !strings.Contains(err.Error(), "belongs to user") {
			t.Errorf("a folder of another user's: %v", err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			listenAt, dial := c.socket(t)
			ln, err := net.Listen("unix", listenAt)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			if c.edit != nil {
				c.edit(t, listenAt)
			}
			log, said := warnings()
			pub := openAt(dial, Info{Kind: "bridge"}, log)
			if pub.Active() {
				t.Error("the session sends to the inspector")
			}
			pub.Wire("h", true, []byte(`{"params":{"arguments":{"token":"secret"}}}`))
			// A bridge's session dials again every second: it is refused
			// each time, and says so once.
			pub.mu.Lock()
			pub.retryAt = time.Time{}
			pub.mu.Unlock()
			pub.Active()
			pub.Close()
			// The dial is synchronous: a connection made would be waiting.
			ln.(*net.UnixListener).SetDeadline(time.Now().Add(100 * time.Millisecond))
			if conn, err := ln.Accept(); err == nil {
				b, _ := io.ReadAll(conn)
				conn.Close()
				t.Errorf("the producer connected, and sent %q", b)
			} else if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal(err)
			}
			got := said.String()
			if !strings.Contains(got, c.want) || !strings.Contains(got, filepath.Dir(dial)) || strings.Count(got, "\n") != 1 {
				t.Errorf("the producer said %q; want one line naming %s and saying %q", got, filepath.Dir(dial), c.want)
			}
		})
	}
}

// A listener of another user's, on a socket and in a folder that are this
// user's (as root can arrange): only the listener's credentials tell, and
// the producer sends it nothing.
func TestAProducerSendsNothingToAListenerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		// Not root: no process of another user can be started; what the
		// producer checks of the peer is checked on this user's listener.
		t.Log("not root: checking only that a listener of this user's is taken and another uid refused")
		if err := sameUser(os.Getuid() + 1); err == nil {
			t.Error("another uid is taken as this user's")
		}
		return
	}
	// The test binary, where the other user may run it.
	bin := tempDirFor(t, nobody, 0o755)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(bin, "feed.test")
	copyFile(t, self, exe)
	// The other user listens in a folder of its own ...
	theirs := tempDirFor(t, nobody, 0o700)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), listenEnv+"="+filepath.Join(theirs, "l.sock"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "listening" {
		t.Fatalf("the other user's listener: %q", lines.Text())
	}
	// ... and its socket is moved into a folder of this user's, and given
	// to this user: the folder and the socket pass, the listener does not.
	dir := privateDir(t)
	sock := filepath.Join(dir, SocketName)
	if err := os.Rename(filepath.Join(theirs, "l.sock"), sock); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(sock, 0, 0); err != nil {
		t.Fatal(err)
	}
	log, said := warnings()
	pub := openAt(sock, Info{Kind: "bridge"}, log)
	active := pub.Active()
	pub.Wire("h", true, []byte(`{"params":{"arguments":{"token":"secret"}}}`))
	pub.Close()
	if active {
		t.Error("the session sends to another user's listener")
	}
	if !lines.Scan() || lines.Text() != "received 0 bytes (<nil>)" {
		t.Errorf("the other user's listener: %q, want 0 bytes received", lines.Text())
	}
	want := fmt.Sprintf("the process that listens runs as user %d, not as this user (0)", nobody)
	if got := said.String(); !strings.Contains(got, want) || !strings.Contains(got, sock) {
		t.Errorf("the producer said %q; want it to name %s and say %q", got, sock, want)
	}
}

// The inspector's own folder and socket, and a listener of this user's,
// are trusted: the checks refuse only what they should.
func TestAProducerSendsToThisUsersInspector(t *testing.T) {
	sock := filepath.Join(privateDir(t), SocketName)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	log, said := warnings()
	pub := openAt(sock, Info{Kind: "run"}, log)
	if !pub.Active() {
		t.Fatalf("the session does not send to this user's inspector: %s", said)
	}
	pub.Close()
	ln.(*net.UnixListener).SetDeadline(time.Now().Add(10 * time.Second))
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, _ := io.ReadAll(conn)
	conn.Close()
	if !bytes.HasPrefix(b, []byte(`{"kind":"run"`)) || said.Len() != 0 {
		t.Errorf("the inspector got %q; the producer said %q", b, said)
	}
	// No folder, no socket: no inspector, and nothing to say.
	for _, missing := range []string{filepath.Join(t.TempDir(), "none", SocketName), filepath.Join(privateDir(t), SocketName)} {
		if err := checkSocket(missing); err != errNoInspector {
			t.Errorf("%s: %v, want no inspector", missing, err)
		}
	}
}

// tempDirFor is a new folder of user uid's, with mode perm, that the other
// user can reach: under the system's temporary folder, not t.TempDir(),
// whose parent is this user's alone.
func tempDirFor(t *testing.T, uid int, perm fs.FileMode) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hookwire-feed-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// fakeOwner is what Lstat says of a file, with another owner.
type fakeOwner struct {
	fs.FileInfo
	uid uint32
}

func (f fakeOwner) Sys() any {
	st := *f.FileInfo.Sys().(*syscall.Stat_t)
	st.Uid = f.uid
	return &st
}

// Every mode a folder may have, of this user's or another's, a folder, a
// link or a file: only a folder of this user's that no one else may enter,
// read or write is taken.
func TestOnlyAFolderOfThisUsersAloneIsTaken(t *testing.T) {
	dir := privateDir(t)
	link := filepath.Join(t.TempDir(), "link")
	file := filepath.Join(t.TempDir(), "file")
	os.Symlink(dir, link)
	os.WriteFile(file, nil, 0o600)
	me := os.Getuid()
	for _, path := range []string{dir, link, file} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, owner := range []int{me, me + 1} {
			for perm := fs.FileMode(0); perm <= 0o777; perm++ {
				got := dirProblem(path, modeOf{fakeOwner{fi, uint32(owner)}, perm}, me)
				want := path == dir && owner == me && perm&0o077 == 0
				if (got == nil) != want {
					t.Fatalf("%s of user %d, mode %#o: %v, want taken %v", path, owner, perm, got, want)
				}
				if got != nil && !strings.Contains(got.Error(), path) {
					t.Fatalf("the refusal %q does not name %s", got, path)
				}
			}
		}
	}
}

// modeOf is what Lstat says of a file, with other permissions.
type modeOf struct {
	fakeOwner
	perm fs.FileMode
}

func (m modeOf) Mode() fs.FileMode { return m.fakeOwner.Mode()&^fs.ModePerm | m.perm }
