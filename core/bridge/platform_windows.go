package bridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// tryLock takes f's exclusive lock (LockFileEx on its first byte), or
// fails at once when another process holds it.
func tryLock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
}

// unlock gives f's lock back.
func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}

// detach starts cmd in a process group of its own with no console, so
// that it outlives the invocation that starts it and the agent's Ctrl-C
// does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}

// checkPrivate says why the folder dir is not this user's: Windows has no
// mode bits to read, so the folder's owner must be this user (the default
// folder is in the user's own temporary folder, whose access list lets no
// other user in).
func checkPrivate(dir string, info fs.FileInfo) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("%s: reading its owner: %w", dir, err)
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("who this user is: %w", err)
	}
	if owner == nil || !owner.Equals(user.User.Sid) {
		return errors.New(dir + " belongs to another user")
	}
	return nil
}
