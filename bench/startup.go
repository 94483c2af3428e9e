package main

import (
	"cmp"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
	"github.com/hookwire/hookwire/core/runtime"
)

// startup times, per language, the bare interpreter (or an empty Go
// program) from start to exit (for Python also with the standard library
// the SDK cannot do without), and the hand-written loop and the SDK hook
// from spawn to the end of the handshake.
func (b *bench) startup() error {
	var cs []*contender
	for _, lang := range langs {
		bare := b.env.bare(lang)
		cs = append(cs, &contender{id: lang + "-bare", label: bareLabel(lang), do: func() error {
			return exec.Command(bare[0], bare[1:]...).Run()
		}})
		if lang == "python" {
			// The floor under the SDK: the standard library it cannot do
			// without. json; typing, which its message types are made with
			// at run time; threading, which runs handlers concurrently; and
			// signal, which stops it cleanly.
			cs = append(cs, &contender{id: "python-stdlib", label: "python -c 'import json, signal, threading, typing'", do: func() error {
				return exec.Command(bare[0], "-c", "import json, signal, threading, typing").Run()
			}})
		}
		for _, kind := range []string{raw, sdk} {
			argv := b.env.argv(lang, kind, modeContinue)
			cs = append(cs, &contender{id: lang + "-" + kind, label: lang + " " + kind + " hook, to handshake done", timed: func() (time.Duration, error) {
				start := time.Now()
				p, err := runtime.Spawn(b.ctx, runtime.Command{Name: "startup", Argv: argv, Modes: []protocol.Mode{protocol.ModeTool}},
					runtime.ProcessOptions{Conn: runtime.ConnOptions{Logger: b.env.log.logger()}})
				took := time.Since(start)
				if err != nil {
					return 0, err
				}
				return took, p.Close()
			}})
		}
	}
	fmt.Fprintf(b.progress, "  %d contenders, %d starts each\n", len(cs), b.cfg.Startups)
	b.measure(cs, 1, 1, b.cfg.Startups, b.cfg.Startups)
	// What each language's limit counts from: the bare interpreter, and for
	// Python the floor of the standard library the SDK cannot do without.
	bare, base := map[string]int64{}, map[string]int64{}
	for _, c := range cs {
		if lang, ok := strings.CutSuffix(c.id, "-bare"); ok {
			bare[lang] = summarize(c.samples).Median
			base[lang] = cmp.Or(base[lang], bare[lang])
		}
		if c.id == "python-stdlib" {
			base["python"] = summarize(c.samples).Median
		}
	}
	for _, c := range cs {
		lang, kind, _ := strings.Cut(c.id, "-")
		r := row{ID: c.id, Label: c.label, summary: summarize(c.samples)}
		if kind != "bare" {
			r.VsBare = ratio(r.Median, bare[lang])
		}
		if kind == raw || kind == sdk {
			r.Limit = startupLimit(lang, base[lang])
		}
		b.res.Startup = append(b.res.Startup, r)
	}
	return nil
}

// startupLimit is the longest an SDK hook may take to be ready, from base:
// for Go and Node.js the bare program's start-up, 1.3 times it plus 10 ms;
// for Python the floor row's (python -c 'import json, signal, threading,
// typing', the standard library the SDK cannot do without) plus 10 ms for
// the SDK's own modules, its server's start and the handshake (issue 44;
// bare + 25 ms before, which that floor alone filled on the bench machine).
func startupLimit(lang string, base int64) int64 {
	if lang == "python" {
		return base + int64(10*time.Millisecond)
	}
	return int64(float64(base)*1.3) + int64(10*time.Millisecond)
}

// startupLimitText says startupLimit in words.
func startupLimitText(lang string) string {
	if lang == "python" {
		return "json, signal, threading, typing + 10 ms"
	}
	return "1.3 x bare + 10 ms"
}

func bareLabel(lang string) string {
	switch lang {
	case "go":
		return "go, an empty program"
	case "python":
		return "python -c pass"
	default:
		return "node -e 0"
	}
}

// memory reads the peak resident set size of this process, which hosts
// the runtime, and of each hook process.
func (b *bench) memory(into *[]memRow) error {
	self, err := peakRSS("self")
	if err != nil {
		return err
	}
	*into = append(*into, memRow{ID: "runtime", Label: "runtime (this process)", Peak: self})
	for _, id := range slices.Sorted(maps.Keys(b.hooks)) {
		h := b.hooks[id]
		if observes(h.mode) {
			continue
		}
		peak, err := peakRSS(strconv.Itoa(h.pid))
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		*into = append(*into, memRow{ID: id, Label: label(h.lang, h.kind), Peak: peak})
	}
	return nil
}
