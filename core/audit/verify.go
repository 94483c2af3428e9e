package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookwire/hookwire/core/internal/nofollow"
)

// Report is what Verify found.
type Report struct {
	// Files are the files read, oldest first.
	Files []string
	// Records is how many records were read; First and Last are the
	// numbers of the first and the last.
	Records     int
	First, Last uint64
	// FirstTime and LastTime are their times.
	FirstTime, LastTime string
	// Problems say what was edited, removed or moved, and where, in the
	// order found; none when the chain holds.
	Problems []string
}

// OK says whether the chain holds.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Verify reads the log at path, its rotated files first, and checks the
// chain: each record numbered one more than the one before it and naming
// its hash, the last one the head's. It returns an error only when the log
// cannot be read at all.
func Verify(path string) (*Report, error) {
	files, err := logFiles(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no audit log here (%s sets where hookwire writes it)", path, EnvPath)
	}
	v := &verifier{report: &Report{Files: files}}
	for _, f := range files {
		if err := v.file(f); err != nil {
			return nil, err
		}
	}
	v.missingAtEnd()
	name := headPath(path)
	f, err := nofollow.Open(name, os.O_RDONLY, 0)
	if err != nil {
		v.problem("%s: cannot be read (%v): records removed from the end of the log would not show", name, err)
		return v.report, nil
	}
	defer f.Close()
	v.againstHead(name, f)
	return v.report, nil
}

// logFiles are the log's rotated files, oldest first, then the log itself.
func logFiles(path string) ([]string, error) {
	rotated, err := filepath.Glob(globEscape(path) + ".*")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range rotated {
		if n := strings.TrimPrefix(f, path+"."); len(n) == 20 && strings.Trim(n, "0123456789") == "" {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	if _, err := os.Lstat(path); err == nil {
		files = append(files, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return files, nil
}

// globEscape quotes the characters of path that Glob reads as a pattern.
func globEscape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(`*?[\`, r) && filepath.Separator != '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

type verifier struct {
	report *Report
	seq    uint64 // the last record's number, 0 before the first
	hash   string // the hash of the last record's line
	where  string // where the last record is, FILE:LINE
	// unreadable: the last line was no record, which was said; the next
	// record is not said not to chain to it as well.
	unreadable bool
	missing    []span // numbers skipped so far, which may yet turn up
}

// span is the numbers from lo to hi.
type span struct{ lo, hi uint64 }

func (v *verifier) problem(format string, args ...any) {
	v.report.Problems = append(v.report.Problems, fmt.Sprintf(format, args...))
}

func (v *verifier) file(path string) error {
	f, err := nofollow.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return v.read(path, f)
}

// read checks the records of the file named path, read from r.
func (v *verifier) read(path string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	n := 0
	for sc.Scan() {
		n++
		v.line(fmt.Sprintf("%s:%d", path, n), sc.Bytes())
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		v.problem("%s:%d: a line longer than %d bytes, which hookwire never writes: the rest of this file is not read", path, n+1, maxLine)
		return nil
	}
	return sc.Err()
}

// line checks one record against the one before it.
func (v *verifier) line(where string, line []byte) {
	hash := hashLine(line)
	var r Record
	if err := json.Unmarshal(line, &r); err != nil || r.Seq == 0 {
		v.problem("%s: not a record of the log (edited or written by another program)", where)
		// Taken for the next record, changed past reading.
		v.seq, v.hash, v.where, v.unreadable = v.seq+1, hash, where, true
		return
	}
	unreadable := v.unreadable
	v.unreadable = false
	rep := v.report
	if rep.Records == 0 {
		rep.First, rep.FirstTime = r.Seq, r.Time
		if r.Seq > 1 {
			v.problem("%s: the log starts at record %d: records 1 to %d are not here (their files were removed)", where, r.Seq, r.Seq-1)
		}
	}
	rep.Records++
	switch {
	case rep.Records == 1:
	case r.Seq <= v.seq:
		if v.found(r.Seq) {
			v.problem("%s: record %d was moved: it comes after record %d", where, r.Seq, v.seq)
		} else {
			v.problem("%s: record %d appears twice, or out of order after record %d", where, r.Seq, v.seq)
		}
		return // the next record follows the one before this
	case r.Seq > v.seq+1:
		v.missing = append(v.missing, span{v.seq + 1, r.Seq - 1})
	case r.Prev != v.hash && !unreadable:
		v.problem("%s: record %d was changed after it was written (record %d, at %s, names another hash), or record %d was", v.where, v.seq, r.Seq, where, r.Seq)
	}
	v.seq, v.hash, v.where = r.Seq, hash, where
	rep.Last, rep.LastTime = r.Seq, r.Time
}

// found takes seq out of the numbers missing, and says whether it was one.
func (v *verifier) found(seq uint64) bool {
	for i, s := range v.missing {
		if seq < s.lo || seq > s.hi {
			continue
		}
		var rest []span
		if s.lo < seq {
			rest = append(rest, span{s.lo, seq - 1})
		}
		if seq < s.hi {
			rest = append(rest, span{seq + 1, s.hi})
		}
		v.missing = slices.Replace(v.missing, i, i+1, rest...)
		return true
	}
	return false
}

// missingAtEnd reports the numbers still missing once every file is read.
func (v *verifier) missingAtEnd() {
	for _, s := range v.missing {
		if s.lo == s.hi {
			v.problem("record %d was removed", s.lo)
		} else {
			v.problem("records %d to %d were removed", s.lo, s.hi)
		}
	}
}

// againstHead checks the last record against the head, named name.
func (v *verifier) againstHead(name string, r io.ReaderAt) {
	head, ok, err := readHead(r)
	switch {
	case err != nil:
		v.problem("%s: %v: records removed from the end of the log would not show", name, err)
	case !ok:
		v.problem("%s is empty: records removed from the end of the log would not show", name)
	case head.Seq > v.seq:
		v.problem("records %d to %d were removed from the end of the log (%s says %d records were written)", v.seq+1, head.Seq, name, head.Seq)
	case head.Seq < v.seq:
		v.problem("records %d to %d are not in %s: added by another program, or written by a process that stopped before it could note them", head.Seq+1, v.seq, name)
	case head.Hash != v.hash && v.seq > 0:
		v.problem("%s: record %d, the last, was changed after it was written: %s holds another hash", v.where, v.seq, name)
	}
}
