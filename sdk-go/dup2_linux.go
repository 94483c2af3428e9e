package hookwire

import "syscall"

// dup2 uses dup3: some Linux ports (arm64, riscv64) have no dup2.
func dup2(oldfd, newfd int) error { return syscall.Dup3(oldfd, newfd, 0) }
