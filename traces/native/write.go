package native

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/schedsim/schedsim/sim"
)

// checkJob reports what the reader would reject in j, so that whatever a
// writer writes reads back.
func checkJob(j *sim.Job) error {
	switch {
	case j.ID == "":
		return fmt.Errorf("id: %w", errEmpty)
	case j.Submit < 0 || j.Submit > maxTime:
		return fmt.Errorf("submit_s: must be in [0, 1e12] s, got %s", j.Submit)
	case j.Runtime < 0 || j.Runtime > maxTime:
		return fmt.Errorf("runtime_s: must be in [0, 1e12] s, got %s", j.Runtime)
	case j.Walltime > maxTime || (j.Walltime < 0 && j.Walltime != sim.NoWalltime):
		return fmt.Errorf("walltime_s: must be in [0, 1e12] s or unknown, got %s", j.Walltime)
	case j.Tasks < 1:
		return fmt.Errorf("tasks: must be ≥ 1, got %d", j.Tasks)
	case j.RequestedProcs < 0:
		return fmt.Errorf("requested_procs: must be ≥ 0, got %d", j.RequestedProcs)
	case j.Recorded && (j.RecordedStart > maxTime || j.RecordedStart < -maxTime):
		return fmt.Errorf("recorded_start_s: must be within ±1e12 s, got %s", j.RecordedStart)
	case !j.Recorded && j.RecordedStart != 0:
		return fmt.Errorf("recorded_start_s: %s, but the job says its start was not recorded", j.RecordedStart)
	}
	if err := checkCotask(j); err != nil {
		return err
	}
	for i, q := range j.Request {
		if q.Resource == "" {
			return errResName
		}
		if q.Amount > maxAmount || q.Amount < -maxAmount {
			return fmt.Errorf("request.%s: %w", q.Resource, errBigAmount)
		}
		for _, p := range j.Request[:i] {
			if p.Resource == q.Resource {
				return fmt.Errorf("request.%s: %w", q.Resource, errTwice)
			}
		}
	}
	if j.Traits != nil {
		if err := checkTraits(j.Traits); err != nil {
			return err
		}
	}
	return checkDeps(j.DependsOn)
}

// AppendJSONL appends j to dst as one JSON line, newline included. Fields
// at their default are left out, except tasks. gang is what the reader
// needs to rebuild the job (writtenGang).
func AppendJSONL(dst []byte, j *sim.Job) ([]byte, error) {
	if err := checkJob(j); err != nil {
		return dst, fmt.Errorf("job %q: %w", j.ID, err)
	}
	dst = append(dst, `{"id":`...)
	dst = appendJSONString(dst, j.ID)
	dst = append(dst, `,"submit_s":`...)
	dst = append(dst, sim.FormatSeconds(j.Submit)...)
	dst = append(dst, `,"runtime_s":`...)
	dst = append(dst, sim.FormatSeconds(j.Runtime)...)
	if j.Walltime != sim.NoWalltime {
		dst = append(dst, `,"walltime_s":`...)
		dst = append(dst, sim.FormatSeconds(j.Walltime)...)
	}
	dst = append(dst, `,"tasks":`...)
	dst = strconv.AppendInt(dst, int64(j.Tasks), 10)
	if len(j.Request) > 0 {
		dst = append(dst, `,"request":{`...)
		for i, q := range j.Request {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, q.Resource)
			dst = append(dst, ':')
			dst = append(dst, q.Amount.String()...)
		}
		dst = append(dst, '}')
	}
	for _, s := range [...]struct {
		key, val string
	}{{"user", j.User}, {"group", j.Group}, {"queue", j.Queue}, {"partition", j.Partition}} {
		if s.val != "" {
			dst = append(dst, `,"`...)
			dst = append(dst, s.key...)
			dst = append(dst, `":`...)
			dst = appendJSONString(dst, s.val)
		}
	}
	if j.Priority != 0 {
		dst = append(dst, `,"priority":`...)
		dst = strconv.AppendInt(dst, int64(j.Priority), 10)
	}
	if !writtenGang(j) {
		dst = append(dst, `,"gang":false`...)
	}
	if j.QOS != "" {
		dst = append(dst, `,"qos":`...)
		dst = appendJSONString(dst, j.QOS)
	}
	if j.RequestedProcs != 0 {
		dst = append(dst, `,"requested_procs":`...)
		dst = strconv.AppendInt(dst, j.RequestedProcs, 10)
	}
	if j.Recorded {
		dst = append(dst, `,"recorded_start_s":`...)
		dst = append(dst, sim.FormatSeconds(j.RecordedStart)...)
	}
	if t := j.Traits; t != nil {
		for f := firstTrait; f < numFields; f++ {
			if hasTrait(f, t) {
				dst = append(dst, `,"`...)
				dst = append(dst, f.String()...)
				dst = append(dst, `":`...)
				dst = appendTrait(dst, f, t)
			}
		}
	}
	if len(j.DependsOn) > 0 {
		dst = append(dst, `,"depends_on":`...)
		dst = appendDeps(dst, j.DependsOn)
	}
	return append(dst, "}\n"...), nil
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does when it reads it.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// WriteJSONL writes jobs as JSON Lines, one job per line.
func WriteJSONL(w io.Writer, jobs []*sim.Job) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, j := range jobs {
		var err error
		if buf, err = AppendJSONL(buf[:0], j); err != nil {
			return err
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteCSV writes jobs as CSV with a header row. The header has every
// column of the job's own fields, one req_<resource> column per resource
// any job requests, in the order the resources first appear, and a column
// for each trait field that some job has (none for a trace without
// traits), then depends_on when some job has dependencies. Lists and
// objects are written as compact JSON in one cell.
func WriteCSV(w io.Writer, jobs []*sim.Job) error {
	var cols Columns
	for _, j := range jobs {
		if err := cols.Add(j); err != nil {
			return err
		}
		for _, q := range j.Request {
			if err := csvColumnName(q.Resource); err != nil {
				return fmt.Errorf("job %q: %w", j.ID, err)
			}
		}
	}
	cw, err := NewCSVWriter(w, cols)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if err := cw.Write(j); err != nil {
			return err
		}
	}
	return cw.Flush()
}
