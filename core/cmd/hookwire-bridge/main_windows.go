package main

import (
	"fmt"
	"os"
)

// The bridge keeps hooks alive between an agent's invocations with Unix
// sockets and file locks, which this Windows build does without.
func main() {
	fmt.Fprintln(os.Stderr, "hookwire-bridge: not available on Windows: it needs Unix sockets and file locks")
	os.Exit(1)
}
