package external

import (
	"encoding/json"
	"strconv"
)

// The requests of a long replay are tens of thousands of small messages:
// the frequent events write themselves, byte for byte as encoding/json
// writes them, and the rare ones go through encoding/json.

// appender is an event's data that writes its own JSON.
type appender interface {
	appendJSON(b []byte) []byte
}

// appendMessage appends a request's JSON.
func appendMessage(b []byte, now float64, evs []event) ([]byte, error) {
	b = append(b, `{"now":`...)
	b = appendNumber(b, now)
	b = append(b, `,"events":[`...)
	for i, e := range evs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"timestamp":`...)
		b = appendNumber(b, e.Timestamp)
		b = append(b, `,"type":`...)
		b = appendString(b, e.Type)
		b = append(b, `,"data":`...)
		if a, ok := e.Data.(appender); ok {
			b = a.appendJSON(b)
		} else {
			d, err := json.Marshal(e.Data)
			if err != nil {
				return nil, err
			}
			b = append(b, d...)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// appendNumber writes a time or an amount as encoding/json does for the
// values the protocol carries (|x| in [1e-6, 1e21) or 0).
func appendNumber(b []byte, x float64) []byte {
	if x != 0 && (x < 1e-6 && x > -1e-6 || x >= 1e21 || x <= -1e21) {
		d, _ := json.Marshal(x)
		return append(b, d...)
	}
	return strconv.AppendFloat(b, x, 'f', -1, 64)
}

// appendString writes s quoted; strings that encoding/json would escape
// go through it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			d, _ := json.Marshal(s)
			return append(b, d...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func (empty) appendJSON(b []byte) []byte { return append(b, "{}"...) }

func (n notify) appendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, n.Type)
	if n.Resources != "" {
		b = append(b, `,"resources":`...)
		b = appendString(b, n.Resources)
	}
	return append(b, '}')
}

func (d jobCompleted) appendJSON(b []byte) []byte {
	b = append(b, `{"job_id":`...)
	b = appendString(b, d.JobID)
	b = append(b, `,"job_state":`...)
	b = appendString(b, d.JobState)
	b = append(b, `,"return_code":`...)
	b = strconv.AppendInt(b, int64(d.ReturnCode), 10)
	b = append(b, `,"alloc":`...)
	b = appendString(b, d.Alloc)
	return append(b, '}')
}

func (d jobSubmitted) appendJSON(b []byte) []byte {
	b = append(b, `{"job_id":`...)
	b = appendString(b, d.JobID)
	b = append(b, `,"job":{"id":`...)
	b = appendString(b, d.Job.ID)
	b = append(b, `,"subtime":`...)
	b = appendNumber(b, d.Job.Subtime)
	if d.Job.Walltime != nil {
		b = append(b, `,"walltime":`...)
		b = appendNumber(b, *d.Job.Walltime)
	}
	b = append(b, `,"res":`...)
	b = strconv.AppendInt(b, int64(d.Job.Res), 10)
	b = append(b, `,"profile":`...)
	b = appendString(b, d.Job.Profile)
	b = append(b, `},"profile":{"type":`...)
	b = appendString(b, d.Profile.Type)
	b = append(b, `,"delay":`...)
	b = appendNumber(b, d.Profile.Delay)
	return append(b, "}}"...)
}
