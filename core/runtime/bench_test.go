package runtime

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"os/exec"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/protocol"
)

// These benchmarks measure the per-call path of the runtime; bench/, at the
// root of the repository, measures it against other hosts and hooks. Run
// them side by side, as in
//
//	go test -run '^$' -bench . -count 10 ./runtime | benchstat -

func benchCall() protocol.BeforeToolParams {
	s := func(v string) *string { return &v }
	one := 1
	return protocol.BeforeToolParams{
		Meta: &protocol.Meta{
			AgentID: s("agent-1"), TurnID: s("turn-1"), ParentTurnID: s(""),
			SessionKey: s("session-1"), Iteration: &one, Source: s("agent"),
		},
		Context: &protocol.TurnContext{Inbound: &protocol.InboundContext{
			Channel: s("cli"), ChatID: s("direct"), SenderID: s("user"),
		}},
		Tool:      "read_file",
		Arguments: map[string]any{"path": "notes/2026-05-01.md"},
		Channel:   s("cli"),
		ChatID:    s("direct"),
	}
}

// echoPeer answers every request read from r with a continue, in the same
// process: what is left is the connection's own work.
func echoPeer(r io.Reader, w io.Writer) {
	br := bufio.NewReader(r)
	bw := bufio.NewWriter(w)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		_, rest, ok := bytes.Cut(line, []byte(`"id":`))
		if !ok {
			continue // a notification
		}
		end := bytes.IndexByte(rest, ',')
		bw.WriteString(`{"jsonrpc":"2.0","id":`)
		bw.Write(rest[:end])
		bw.WriteString(`,"result":{"action":"continue"}}` + "\n")
		if br.Buffered() == 0 {
			bw.Flush()
		}
	}
}

func inProcessConn(b *testing.B) *Conn { return pipeConn(b, ConnOptions{}, echoPeer) }

// BenchmarkConnCall is one call at a time to a peer in this process.
func BenchmarkConnCall(b *testing.B) {
	c := inProcessConn(b)
	call := benchCall()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Call(ctx, protocol.MethodBeforeTool, call); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnCallParallel is many calls in flight at once.
func BenchmarkConnCallParallel(b *testing.B) {
	c := inProcessConn(b)
	call := benchCall()
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Call(context.Background(), protocol.MethodBeforeTool, call); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkProcessCall is one call at a time to the fixture, a child process.
func BenchmarkProcessCall(b *testing.B) {
	p, err := Spawn(context.Background(), Command{Name: "fx", Argv: fixture()}, quick(nil))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	call := benchCall()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Call(ctx, protocol.MethodBeforeTool, call); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuntimeBeforeTool is a before_tool through the runtime to the
// fixture: the connection plus the deadline, the decoding and the chain.
func BenchmarkRuntimeBeforeTool(b *testing.B) {
	cfg := Config{Hooks: HooksConfig{Enabled: true, Processes: map[string]ProcessConfig{
		"fx": {Enabled: true, Command: fixture(), Intercept: []string{"before_tool"}},
	}}}
	r, err := New(cfg, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	call := benchCall()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, d := r.BeforeTool(ctx, call); !d.Continue() {
			b.Fatalf("decision %+v", d)
		}
	}
}

// BenchmarkEncodeRequest is the line of one before_tool request.
func BenchmarkEncodeRequest(b *testing.B) {
	call := benchCall()
	id := uint64(12345)
	b.ReportAllocs()
	for b.Loop() {
		line, err := encodeMessage(&id, protocol.MethodBeforeTool, call)
		if err != nil {
			b.Fatal(err)
		}
		line.free()
	}
}

// BenchmarkProcessBare is the floor of BenchmarkProcessCall: the same
// request line written to the fixture and its reply read back by the
// caller itself, with no connection in between.
func BenchmarkProcessBare(b *testing.B) {
	id := uint64(1)
	lb, err := encodeMessage(&id, protocol.MethodBeforeTool, benchCall())
	if err != nil {
		b.Fatal(err)
	}
	line := lb.b
	cmd := exec.Command(fixtureBin)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	br := bufio.NewReader(out)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := br.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
}
