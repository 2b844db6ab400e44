package script

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/schedsim/schedsim/sim"
)

// MaxLog is how many log entries a script keeps in memory when no writer
// is set (SetLog); later ones are counted as dropped. A script that logs
// every candidate of every decision of a long replay would otherwise hold
// the run's memory hostage.
const MaxLog = 100_000

// MaxLogMsg is the longest message an entry keeps, in bytes; the rest is
// cut and counted in the entry. The memory budget lets one call format a
// message of many MiB, and MaxLog of those would not fit in memory.
const MaxLogMsg = 4096

// Entry is one message a script logged (log_info, log_warn, log_error, or
// print), with the decision it was logged in.
type Entry struct {
	At    sim.Time // when the decision was made
	Job   string
	Task  int    // which of the job's tasks
	Entry string // the entry point that logged it
	Level string // info, warn, error or print
	Msg   string
}

// String is the entry as one log line.
func (e Entry) String() string {
	return fmt.Sprintf("t=%s %s job=%s task=%d %s: %s", e.At, e.Level, e.Job, e.Task, e.Entry, e.Msg)
}

// logBook holds or writes a script's log in the order of the calls, which
// the replay makes deterministic.
type logBook struct {
	entries []Entry
	w       io.Writer
	err     error
	dropped int
	// size is the bytes of the log's lines so far, limit their cap
	// (log_max_mib); full says an entry was dropped for it.
	size, limit uint64
	full        bool
}

// SetLog sends every later entry to w as a line (String) instead of
// keeping it; the first write error is kept (LogErr) and later entries
// are dropped.
func (s *Script) SetLog(w io.Writer) { s.log.w = w }

// Log returns the entries kept in memory (none once SetLog is used).
func (s *Script) Log() []Entry { return s.log.entries }

// Dropped is how many entries were dropped: past MaxLog, past log_max_mib,
// or after a write error.
func (s *Script) Dropped() int { return s.log.dropped }

// DroppedNote is the log's last line when entries were dropped, saying
// how many and why; "" when none were.
func (s *Script) DroppedNote() string {
	switch {
	case s.log.dropped == 0:
		return ""
	case s.log.full:
		return fmt.Sprintf("(log cut at log_max_mib: %d MiB; %d more messages dropped)", s.log.limit>>20, s.log.dropped)
	case s.log.err != nil:
		return fmt.Sprintf("(%d more messages dropped after a write error: %v)", s.log.dropped, s.log.err)
	}
	return fmt.Sprintf("(log cut at %d messages; %d more dropped)", MaxLog, s.log.dropped)
}

// LogErr is the first error writing the log.
func (s *Script) LogErr() error { return s.log.err }

func (s *Script) logf(level, msg string) {
	if len(msg) > MaxLogMsg {
		cut := MaxLogMsg
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = fmt.Sprintf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
	}
	e := Entry{Entry: s.cur.entry, Level: level, Msg: msg, Task: -1}
	if t := s.cur.t; t != nil {
		e.At, e.Task = t.At, t.Index
		if t.Job != nil {
			e.Job = t.Job.ID
		}
	}
	line := e.String() + "\n"
	if s.log.full || s.log.size+uint64(len(line)) > s.log.limit {
		s.log.full = true
		s.log.dropped++
		return
	}
	s.log.size += uint64(len(line))
	switch {
	case s.log.err != nil:
		s.log.dropped++
	case s.log.w != nil:
		if _, err := io.WriteString(s.log.w, line); err != nil {
			s.log.err = err
			s.log.dropped++
		}
	case len(s.log.entries) >= MaxLog:
		s.log.dropped++
	default:
		s.log.entries = append(s.log.entries, e)
	}
}
