package native

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/schedsim/schedsim/traces"
)

// Calendar time: a trace converted from one that says when its time 0
// was (an SWF header's UnixStartTime, sacct's calendar dates) keeps that
// instant and the site's time zone, so that its replay writes the same
// timestamps. A Parquet trace holds them in its key-value metadata; JSON
// Lines and CSV in a first line of their own, a comment:
//
//	# schedsim.epoch=1996-09-23T12:00:31Z schedsim.time_zone=Europe/Stockholm
//
// The keys are the ones the run's output files use for the same facts.

// Keys of the calendar, in the Parquet metadata and on the calendar line.
const (
	epochKey    = "schedsim.epoch"     // RFC 3339 instant of time 0, written in UTC
	timeZoneKey = "schedsim.time_zone" // the site's IANA time zone
)

// calendarPrefix starts a calendar line: a comment whose first word is a
// schedsim key.
const calendarPrefix = "schedsim."

// maxCalendarLine bounds the first line the text readers look at for the
// calendar; a longer one is not a calendar line.
const maxCalendarLine = 4 << 10

// AppendCalendarLine appends the calendar line of a JSON Lines or CSV
// trace, newline included, which must be the file's first line; nothing
// when epoch is the zero time and zone is "". A zone with blanks or
// control characters is an error (no IANA name has them).
func AppendCalendarLine(dst []byte, epoch time.Time, zone string) ([]byte, error) {
	if err := checkZone(zone); err != nil {
		return dst, fmt.Errorf("%s: %w", timeZoneKey, err)
	}
	if epoch.IsZero() && zone == "" {
		return dst, nil
	}
	dst = append(dst, '#')
	if !epoch.IsZero() {
		dst = append(dst, " "+epochKey+"="...)
		dst = epoch.UTC().AppendFormat(dst, time.RFC3339Nano)
	}
	if zone != "" {
		dst = append(dst, " "+timeZoneKey+"="...)
		dst = append(dst, zone...)
	}
	return append(dst, '\n'), nil
}

var (
	errZone          = errors.New("must be a time zone name without blanks")
	errEpoch         = errors.New("must be an RFC 3339 time (1996-09-23T12:00:31Z)")
	errCalendarKey   = errors.New("unknown key (known: " + epochKey + ", " + timeZoneKey + ")")
	errCalendarWord  = errors.New("want key=value")
	errCalendarEmpty = errors.New("empty value")
)

func checkZone(zone string) error {
	if strings.IndexFunc(zone, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return errZone
	}
	return nil
}

// calendarValue sets the calendar key of e from its text; the error
// names no value, as a reader's reasons do.
func (e *Embedded) calendarValue(key, val string) error {
	switch key {
	case epochKey:
		t, err := time.Parse(time.RFC3339Nano, val)
		if err != nil {
			return errEpoch
		}
		e.Epoch = t.UTC()
	case timeZoneKey:
		if val == "" {
			return errCalendarEmpty
		}
		if err := checkZone(val); err != nil {
			return err
		}
		e.TimeZone = val
	default:
		return errCalendarKey
	}
	return nil
}

// readCalendarLine reads the calendar line when it is the first line of
// br (after a byte-order mark), and returns what it says and the number
// of lines it took (0 or 1). Any other first line is left for the
// records. A bad calendar line is a *traces.ParseError on line 1.
func readCalendarLine(br *bufio.Reader, name string) (cal Embedded, lines int, err error) {
	data, _ := br.Peek(maxCalendarLine) // a short read is the whole file, or an error the records will meet
	body := bytes.TrimPrefix(data, bom)
	if len(body) == 0 || body[0] != '#' {
		return cal, 0, nil
	}
	end := bytes.IndexByte(body, '\n')
	if end < 0 {
		if len(data) == maxCalendarLine {
			return cal, 0, nil // longer than a calendar line
		}
		end = len(body)
	}
	words := strings.Fields(string(body[1:end]))
	if len(words) == 0 || !strings.HasPrefix(words[0], calendarPrefix) {
		return cal, 0, nil
	}
	seen := map[string]bool{}
	for _, w := range words {
		key, val, ok := strings.Cut(w, "=")
		var err error
		switch {
		case !ok:
			err = errCalendarWord
		case seen[key]:
			err = errTwice
		default:
			err = cal.calendarValue(key, val)
		}
		if err != nil {
			field := key
			if !ok {
				field = ""
			}
			return Embedded{}, 1, &traces.ParseError{File: name, Line: 1, Field: field, Err: err}
		}
		seen[key] = true
	}
	if _, err := br.Discard(len(data) - len(body) + min(end+1, len(body))); err != nil {
		return Embedded{}, 1, fmt.Errorf("%s: %w", name, err)
	}
	return cal, 1, nil
}
