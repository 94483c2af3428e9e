//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// tapSignals are the signals the tap passes on to the hook's process group.
var tapSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// dieBy ends this process by sig, as the hook ended.
func dieBy(sig syscall.Signal) {
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
}
