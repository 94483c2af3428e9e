package inspect

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookwire/hookwire/core/inspect/feed"
	"github.com/hookwire/hookwire/core/wiretap"
)

// The loaders: a producer's stream (live), a recording, the bridge's logs.

// maxLine is the longest line the inspector reads from a producer or a
// file: a message of the runtime's 64 MiB limit, and room for the rest.
const maxLine = wiretap.MaxRecordSize

// readLines calls fn with each line of r, refusing one longer than maxLine.
func readLines(r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			frag, err := br.ReadSlice('\n')
			line = append(line, frag...)
			if len(line) > maxLine {
				return fmt.Errorf("a line longer than %d bytes", maxLine)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if len(bytes.TrimSpace(line)) > 0 {
				if ferr := fn(bytes.TrimRight(line, "\r\n")); ferr != nil {
					return ferr
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			break
		}
	}
}

// ingest reads a producer's stream into a new session until it ends.
func (st *store) ingest(r io.Reader) error {
	var s *session
	err := readLines(r, func(line []byte) error {
		if s == nil {
			info, err := decodeInfo(line)
			if err != nil {
				return err
			}
			s = st.add(Summary{Info: info, Source: "live"})
			st.notify()
			return nil
		}
		it, err := decodeItem(line)
		if err != nil {
			// One item lost, not the session.
			st.take(s, item{Item: feed.Item{Type: "wire", Dir: "?", Text: "an item the inspector cannot read: " + err.Error()}})
			return nil
		}
		st.take(s, it)
		st.notify()
		return nil
	})
	if s != nil {
		st.mu.Lock()
		s.Ended = true
		s.flush()
		st.mu.Unlock()
		st.notify()
	}
	return err
}

// openRecording adds a recording (hookwire tap --out, hookwire run
// --trace FILE) as a session.
func (st *store) openRecording(name string, r io.Reader) (int, error) {
	recs, err := wiretap.Read(r)
	if err != nil {
		return 0, err
	}
	info := feed.Info{Kind: "recording"}
	if len(recs) > 0 {
		info.Start, info.Command = recs[0].Time, recs[0].Hook
	}
	s := st.add(Summary{Info: info, Source: "recording", Name: name, Ended: true})
	for _, rec := range recs {
		it := feed.Item{Type: "wire", Time: rec.Time, Hook: rec.Hook, Dir: rec.Dir, Message: rec.Message, LatencyNS: int64(rec.Latency)}
		if rec.Text != nil {
			it.Text = *rec.Text
		}
		st.take(s, item{Item: it, message: messageOf(rec.Message)})
	}
	st.mu.Lock()
	s.records = recs
	st.mu.Unlock()
	st.notify()
	return s.ID, nil
}

// maxLogRows is how many of a log's last lines a session of a log shows.
const maxLogRows = 10_000

// openLogs adds a session for each bridge session's log in dir: the
// sessions that ran, or began, before the inspector.
func (st *store) openLogs(dir string) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		var lines []string
		_ = readLines(f, func(line []byte) error {
			lines = append(lines, string(line))
			if len(lines) > 2*maxLogRows {
				lines = append(lines[:0], lines[len(lines)-maxLogRows:]...)
			}
			return nil
		})
		f.Close()
		lines = lines[max(0, len(lines)-maxLogRows):]
		fi, _ := os.Stat(p)
		// The bridge names a log AGENT-HASH.log.
		agent := filepath.Base(p)
		agent = agent[:max(0, strings.LastIndex(agent, "-"))]
		info := feed.Info{Kind: "bridge", Host: agent, Log: filepath.Base(p)}
		if fi != nil {
			info.Start = fi.ModTime()
		}
		s := st.add(Summary{Info: info, Source: "log", Name: filepath.Base(p), Ended: true})
		st.mu.Lock()
		for _, l := range lines {
			s.append(&entry{Row: Row{Type: "log", Text: l}})
		}
		st.mu.Unlock()
	}
	st.notify()
}
