// Package shelloracle holds the fuzz test that reads command lines with
// the SDK's shell reader (sdk-go/shell) and with mvdan.cc/sh, a full shell
// parser, and holds the two to agree. It is a package of its own because
// the SDK may import nothing outside the standard library, while core may
// import mvdan.cc/sh; no other core package reads shell commands for a
// guard, so the test has no better home.
package shelloracle
