package swf

import (
	"errors"

	"github.com/schedsim/schedsim/sim"
)

// numFields is the number of fields of an SWF record.
const numFields = 18

// fieldNames are the SWF field names, for error messages.
var fieldNames = [numFields]string{
	"job_number", "submit_time", "wait_time", "run_time", "allocated_processors",
	"average_cpu_time", "used_memory", "requested_processors", "requested_time",
	"requested_memory", "status", "user_id", "group_id", "executable", "queue",
	"partition", "preceding_job", "think_time",
}

// splitFields cuts a line at blanks into at most len(out) fields without
// allocating, and returns how many it found (more than len(out) is reported
// as len(out)+1).
func splitFields(line []byte, out *[numFields][]byte) int {
	return splitFirst(line, out, numFields)
}

// splitFirst is splitFields stopping after the first k fields (k ≤
// numFields): it returns k as soon as it has them, without looking at the
// rest of the line. Reading the submit time needs only two.
func splitFirst(line []byte, out *[numFields][]byte, k int) int {
	n := 0
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		if i >= len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
			j++
		}
		if n == numFields {
			return numFields + 1
		}
		out[n] = line[i:j]
		n++
		if n == k && k < numFields {
			return n
		}
		i = j
	}
	return n
}

var errNotNumber = errors.New("not a number")

// parseInt reads a decimal integer; "12.0" is accepted (some logs write
// integers that way), "12.5" is not.
func parseInt(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, errNotNumber
	}
	neg := false
	i := 0
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		i = 1
	}
	if i == len(b) {
		return 0, errNotNumber
	}
	var v int64
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' {
			for _, z := range b[i+1:] {
				if z != '0' {
					return 0, errors.New("not an integer")
				}
			}
			break
		}
		if c < '0' || c > '9' {
			return 0, errNotNumber
		}
		if v > (1<<62)/10 {
			return 0, errors.New("too large")
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, nil
}

// parseTime reads seconds exactly into sim.Time.
func parseTime(b []byte) (sim.Time, error) {
	// Fast path: plain integers, the common case.
	if v, err := parseInt(b); err == nil {
		if v > 9_000_000_000_000 || v < -9_000_000_000_000 {
			return 0, errors.New("too large")
		}
		return sim.Time(v) * sim.Second, nil
	}
	t, err := sim.ParseSeconds(string(b))
	if err != nil {
		return 0, errNotNumber
	}
	return t, nil
}

// isNumber reports whether b is a decimal number (used to check fields
// the simulator does not read, in strict mode).
func isNumber(b []byte) bool {
	_, err := parseTime(b)
	return err == nil
}
