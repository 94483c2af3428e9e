package wire

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tieToParent puts a started process in a job object of its own that ends
// every process in it when its last handle closes: when release is
// called, or when this process ends, even killed. Windows has no
// parent-death signal (Pdeathsig on Linux); this is what stands for it, so
// that a hook does not outlive the server that started it. What the hook
// starts after this call is in the job too; a process it started in the
// moment before is not.
func tieToParent(p *os.Process) (release func(), err error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating a job object: %w", err)
	}
	info := killOnClose()
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("setting the job object's limits: %w", err)
	}
	// os.Process keeps its handle to itself; one more, with the two rights
	// that AssignProcessToJobObject asks for, is ours to close. The pid
	// cannot have been reused: the process has not been waited for.
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("opening process %d: %w", p.Pid, err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("assigning process %d to a job object: %w", p.Pid, err)
	}
	return func() { windows.CloseHandle(job) }, nil
}

// killOnClose are the job's limits: only that closing it ends its processes.
func killOnClose() windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	return info
}
