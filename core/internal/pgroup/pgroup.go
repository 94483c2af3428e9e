// Package pgroup starts a hook in a process group of its own and stops the
// whole group, so that what a hook started does not outlive it: with
// process groups and signals on Unix, and with a new process group and
// taskkill's process tree on Windows.
package pgroup
