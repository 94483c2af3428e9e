package wire

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/benchdata"

	"github.com/hookwire/hookwire/core/protocol"
)

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
	call := benchdata.BeforeTool()
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
	call := benchdata.BeforeTool()
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
	call := benchdata.BeforeTool()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Call(ctx, protocol.MethodBeforeTool, call); err != nil {
			b.Fatal(err)
		}
	}
}
