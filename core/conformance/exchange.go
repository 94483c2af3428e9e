package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/internal/wirefmt"
	"github.com/hookwire/hookwire/core/wire"
)

// Exchange is one exchange vector (schema/testdata/exchanges): the lines a
// host writes to a hook, and the lines the hook must write back.
type Exchange struct {
	Name  string   // the file's name, without .txtar
	About string   // what the exchange shows
	In    []string // lines to the hook's stdin
	Out   []string // lines the hook must write, in any order; "<any>" matches any value
}

// Any, as a string anywhere in an Out line, matches any value there.
const Any = "<any>"

// LoadExchanges reads every .txtar file of dir, in name order.
func LoadExchanges(dir string) ([]Exchange, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .txtar exchange files", dir)
	}
	var out []Exchange
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		x, err := parseExchange(strings.TrimSuffix(filepath.Base(f), ".txtar"), string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// parseExchange reads the txtar form: a comment, then the sections "in"
// and "out", each a line "-- name --" followed by its lines.
func parseExchange(name, text string) (Exchange, error) {
	x := Exchange{Name: name}
	var section *[]string
	var about []string
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case line == "-- in --":
			section = &x.In
		case line == "-- out --":
			section = &x.Out
		case strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --"):
			return x, fmt.Errorf("unknown section %q (there are: in, out)", line)
		case section == nil:
			about = append(about, line)
		case line != "":
			*section = append(*section, line)
		}
	}
	x.About = strings.TrimSpace(strings.Join(about, " "))
	if x.In == nil {
		return x, fmt.Errorf("no -- in -- section")
	}
	for i, line := range x.Out {
		if !json.Valid([]byte(line)) {
			return x, fmt.Errorf("out line %d is not JSON: %s", i+1, line)
		}
	}
	return x, nil
}

// Run plays the exchange with a hook process: it writes every In line,
// closes the hook's stdin, reads its stdout to the end, and says how what
// the hook wrote differs from Out, if it does. The hook must exit within
// ExitTimeout of its stdin closing, once its last reply is due.
func (x Exchange) Run(ctx context.Context, cmd wire.Command, opts Options) error {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	p, err := start(cmd, opts.Timeout, opts.Stderr, opts.MaxOutput)
	if err != nil {
		return err
	}
	defer p.stop()
	if err := p.write([]byte(strings.Join(x.In, "\n") + "\n")); err != nil {
		return err
	}
	if exited, _ := p.closeStdin(opts.Timeout + ExitTimeout); !exited {
		return fmt.Errorf("the hook did not exit within %v of its stdin closing", opts.Timeout+ExitTimeout)
	}
	select {
	case <-p.readDone:
	case <-time.After(time.Second):
	case <-ctx.Done():
		return ctx.Err()
	}
	p.mu.Lock()
	var got [][]byte
	for _, m := range p.msgs {
		got = append(got, m.raw)
	}
	got = append(got, p.junk...)
	p.mu.Unlock()
	return compareLines(x.Out, got)
}

// compareLines matches each line written to one wanted line, in any order.
func compareLines(want []string, got [][]byte) error {
	left := slices.Clone(want)
	var problems []string
	for _, line := range got {
		var v any
		if err := decode(line, &v); err != nil {
			problems = append(problems, fmt.Sprintf("wrote a line that is not JSON: %s", wirefmt.Clip(string(line), 120)))
			continue
		}
		i := slices.IndexFunc(left, func(w string) bool {
			var wv any
			return decode([]byte(w), &wv) == nil && matches(wv, v)
		})
		if i < 0 {
			problems = append(problems, "wrote a line not expected: "+wirefmt.Clip(string(line), 120))
			continue
		}
		left = slices.Delete(left, i, i+1)
	}
	for _, w := range left {
		problems = append(problems, "did not write: "+w)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return nil
}

func decode(line []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber() // ids beyond 2^53 compare exactly
	return d.Decode(v)
}

// matches compares a wanted JSON value with one written, Any matching anything.
func matches(want, got any) bool {
	if want == Any {
		return true
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matches(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matches(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}
