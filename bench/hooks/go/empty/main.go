// An empty program: the start-up floor of a Go hook.
package main

func main() {}
