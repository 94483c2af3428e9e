package session

import (
	"os"
	"sync"
)

// MaxLogSize caps a session's log: past it, the log is moved to LOG.1
// (replacing the one before) and begun again, so that a chatty hook
// takes at most twice this much.
const MaxLogSize = 10 << 20

// CappedLog is a session's log file, capped at max bytes.
type CappedLog struct {
	path string
	max  int64

	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenCappedLog opens the log at path, to be capped at max bytes.
func OpenCappedLog(path string, max int64) (*CappedLog, error) {
	l := &CappedLog{path: path, max: max}
	return l, l.open()
}

func (l *CappedLog) open() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	l.f, l.size = f, info.Size()
	return nil
}

func (l *CappedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.size+int64(len(p)) > l.max && l.size > 0 {
		l.f.Close()
		os.Rename(l.path, l.path+".1")
		if err := l.open(); err != nil {
			return 0, err
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}
