package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/hookwire/hookwire/core/internal/testbin"

	"github.com/hookwire/hookwire/core/internal/vectors"
	"github.com/hookwire/hookwire/core/internal/wirecheck"
	"github.com/hookwire/hookwire/core/protocol"
)

// The reply reader of a connection takes whatever a hook prints: the fuzz
// target prints data, then a real reply, and checks that the call gets an
// answer, and that an answer other than the real one comes from a line of
// data that encoding/json reads as a reply to the call, with the same result.
func FuzzConnReadsAnyLine(f *testing.F) {
	for _, line := range testbin.HostileLines() {
		f.Add(false, line)
	}
	all, err := vectors.Load()
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range all {
		if v.Message != nil {
			f.Add(false, []byte(v.Message))
		}
		if v.Result != nil {
			f.Add(true, []byte(`{"jsonrpc":"2.0","id":1,"result":`+string(v.Result)+`}`))
		}
	}
	_, out, err := vectors.ExchangeLines()
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range out {
		f.Add(false, bytes.ReplaceAll(line, []byte(`"<any>"`), []byte(`"x"`)))
	}
	f.Fuzz(func(t *testing.T, short bool, data []byte) {
		// Over OS pipes, the caller reads its reply itself; over io.Pipe,
		// which has no read deadline, the connection's reader hands it over.
		for _, osPipes := range []bool{true, false} {
			readsAnyLine(t, short, osPipes, data)
		}
	})
}

func readsAnyLine(t *testing.T, short, osPipes bool, data []byte) {
	opts := ConnOptions{Logger: slog.New(slog.DiscardHandler)}
	if short {
		opts.MaxLineSize = 64
	}
	reqR, reqW := pipe(t, osPipes)
	repR, repW := pipe(t, osPipes)
	c := NewConn(repR, reqW, opts)
	defer func() {
		c.Close()
		repW.Close()
		reqR.Close()
	}()
	const real = `{"real":true}`
	go func() {
		br := bufio.NewReader(reqR)
		if _, err := br.ReadBytes('\n'); err != nil {
			return
		}
		// A new array: appending to data could write into the spare room of
		// the fuzzer's input while a writer of an earlier input reads it.
		repW.Write(slices.Concat(data, []byte("\n"+`{"jsonrpc":"2.0","id":1,"result":`+real+"}\n")))
		io.Copy(io.Discard, br) // what the connection answers to requests in data
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.Call(ctx, protocol.MethodBeforeTool, json.RawMessage(`{}`))
	if ctx.Err() != nil {
		t.Fatalf("no answer: the reader stopped at %q", data)
	}
	if err == nil && string(res) == real {
		return
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		var tooLong *LineTooLongError
		if short && len(line) > opts.MaxLineSize && errors.As(err, &tooLong) {
			return
		}
		var reply struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if !json.Valid(line) || json.Unmarshal(line, &reply) != nil || string(reply.ID) != "1" {
			continue
		}
		if err != nil || wirecheck.Same(reply.Result, res) == nil {
			return
		}
	}
	t.Fatalf("answered %s, %v: no line of %q says so", res, err, data)
}

// pipe is an OS pipe, or an io.Pipe.
func pipe(t *testing.T, osPipe bool) (io.ReadCloser, io.WriteCloser) {
	if !osPipe {
		return io.Pipe()
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}
