package main

import (
	"os"
	"syscall"
)

// tapSignals are what Windows delivers: an interrupt, passed on to the hook.
var tapSignals = []os.Signal{os.Interrupt}

// dieBy does nothing on Windows, where no process is killed by a signal:
// the exit status says it.
func dieBy(syscall.Signal) {}
