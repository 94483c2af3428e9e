package hookwire

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Run serves the protocol on stdin and stdout until the host closes stdin
// (after the handlers in flight finish) or sends SIGTERM or SIGINT (after
// the handlers, whose context is cancelled, return). Both are a clean end:
// Run returns nil. A second signal ends the process at once.
//
// While Run runs, stdout is protected: file descriptor 1 is moved to
// stderr, so that fmt.Println, a library that prints and a child process
// that inherits stdout all end up in the hook's log, and the protocol
// writes to a duplicate of the original stdout. On platforms without
// dup2 (Windows, wasm, plan9) only os.Stdout is redirected.
func (h *Hook) Run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // the next signal gets its default effect
	wire, restore, err := protectStdout()
	if err != nil {
		return fmt.Errorf("hookwire: protecting stdout: %w", err)
	}
	defer restore()
	return h.Serve(ctx, os.Stdin, wire)
}

// Main is the main function of a hook program: it calls [Hook.Run] and
// exits with status 1 if Run fails.
func (h *Hook) Main() {
	if err := h.Run(context.Background()); err != nil {
		h.logger().Error("hook stopped", "err", err)
		os.Exit(1)
	}
}
