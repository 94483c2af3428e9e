package inspect

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/hookwire/hookwire/core/wiretap"
)

// A session's lines of the wire are kept as a recording's records, in the
// order they went: a live session is then exported as the recording
// `hookwire replay` reads (and `hookwire inspect RECORDING` opens), and
// replayed from the page, as an opened recording is.

// keep appends a line of a live session's wire to its records. An opened
// recording has its records already.
func (s *session) keep(it item) {
	if s.Source != "live" || it.Dir != wiretap.Send && it.Dir != wiretap.Recv {
		return
	}
	rec := wiretap.Record{Hook: it.Hook, Dir: it.Dir, Time: it.Time, Latency: time.Duration(it.LatencyNS), Message: it.Message}
	if it.Message == nil {
		text := it.Text
		rec.Text = &text
	}
	s.records = append(s.records, rec)
}

// recording is a session's records as they are now: a copy of the slice,
// whose records are never changed, only appended to.
func (st *store) recording(id int) ([]wiretap.Record, bool) {
	s := st.get(id)
	if s == nil {
		return nil, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return s.records[:len(s.records):len(s.records)], true
}

// export downloads a session as a recording: JSON Lines, one record of
// the wire a line, as `hookwire tap --out` writes them.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.PathValue("id"))
	recs, ok := s.store.recording(id)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if len(recs) == 0 {
		http.Error(w, "this session has no line of a hook's wire to export: an in-process hook's calls, or a log, have none", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/jsonl")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="hookwire-session-%d.jsonl"`, id))
	out := wiretap.NewWriter(w)
	for _, rec := range recs {
		if out.Write(rec) != nil {
			return // the browser went away
		}
	}
}
