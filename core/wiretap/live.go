package wiretap

import (
	"io"
	"os"
	"sync"
)

// Colours of a live trace on a terminal.
const (
	colourSend  = "\x1b[36m" // cyan: host to hook
	colourRecv  = "\x1b[32m" // green: hook to host
	colourReset = "\x1b[0m"
)

// Live writes the wire for people, one line per message:
//
//	[weather_plugin] > {"jsonrpc":"2.0","id":2,"method":"hook.before_tool",...}
//	[weather_plugin] < {"jsonrpc":"2.0","id":2,"result":{"action":"continue"}}
//
// ">" is a line from host to hook, "<" one from hook to host. The marks
// are coloured when colour is true. Each message is one write, so that
// traces of several hooks do not mix within a line. The function has the
// shape of runtime.Options.Trace.
func Live(w io.Writer, colour bool) func(hook string, out bool, line []byte) {
	var mu sync.Mutex
	return func(hook string, out bool, line []byte) {
		mark, c := " < ", colourRecv
		if out {
			mark, c = " > ", colourSend
		}
		b := make([]byte, 0, len(hook)+len(line)+16)
		if colour {
			b = append(b, c...)
		}
		b = append(append(append(append(b, '['), hook...), ']'), mark...)
		if colour {
			b = append(b, colourReset...)
		}
		b = append(append(b, line...), '\n')
		mu.Lock()
		defer mu.Unlock()
		w.Write(b)
	}
}

// IsTerminal is true when w is a terminal, where a live trace is coloured.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
