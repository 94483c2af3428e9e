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
// While Run runs, the protocol has stdin and stdout to itself: it reads and
// writes duplicates of them, file descriptor 1 points at stderr and file
// descriptor 0 at /dev/null. fmt.Println, a library that prints and a child
// process that inherits stdout all end up in the hook's log, and nothing
// can read the host's messages from under the SDK. On platforms without
// dup2 (Windows, wasm, plan9) only os.Stdout is redirected.
func (h *Hook) Run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop) // the next signal gets its default effect
	in, out, restore, err := protectStdio()
	if err != nil {
		return fmt.Errorf("hookwire: protecting stdin and stdout: %w", err)
	}
	defer restore()
	return h.Serve(ctx, in, out)
}

// Main is the main function of a hook program: it calls [Hook.Run] and
// exits with status 1 if Run fails.
func (h *Hook) Main() {
	if err := h.Run(context.Background()); err != nil {
		h.logger().Error("hook stopped", "err", err)
		os.Exit(1)
	}
}
