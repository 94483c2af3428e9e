package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LogHandler prints the runtime's log for people: a hook's stderr as
// "[hook] line", anything else as "hookwire: level: message key=value".
type LogHandler struct {
	mu    *sync.Mutex
	w     io.Writer
	attrs []slog.Attr
}

func NewLogHandler(w io.Writer) *LogHandler { return &LogHandler{mu: &sync.Mutex{}, w: w} }

func (h *LogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *LogHandler) Handle(_ context.Context, r slog.Record) error {
	attrs := append([]slog.Attr{}, h.attrs...)
	r.Attrs(func(a slog.Attr) bool { attrs = append(attrs, a); return true })
	var hook, stream string
	var rest []slog.Attr
	for _, a := range attrs {
		switch a.Key {
		case "hook":
			hook = a.Value.String()
		case "stream":
			stream = a.Value.String()
		default:
			rest = append(rest, a)
		}
	}
	var line string
	if stream == "stderr" {
		line = fmt.Sprintf("[%s] %s", hook, r.Message)
	} else {
		line = "hookwire: " + levelName(r.Level) + ": "
		if hook != "" {
			line += "hook " + hook + ": "
		}
		line += r.Message
		for _, a := range rest {
			v := a.Value.String()
			if a.Value.Kind() == slog.KindDuration {
				v = a.Value.Duration().Round(time.Millisecond).String()
			}
			line += fmt.Sprintf(" %s=%s", a.Key, quoteIfNeeded(v))
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := fmt.Fprintln(h.w, line)
	return err
}

func (h *LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &LogHandler{mu: h.mu, w: h.w, attrs: append(append([]slog.Attr{}, h.attrs...), attrs...)}
}

func (h *LogHandler) WithGroup(string) slog.Handler { return h }

func levelName(l slog.Level) string {
	switch {
	case l >= slog.LevelError:
		return "error"
	case l >= slog.LevelWarn:
		return "warning"
	}
	return "info"
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"=") {
		return strconv.Quote(s)
	}
	return s
}
