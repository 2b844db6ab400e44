package external

import (
	"encoding/json"
	"strconv"
)

// The replies of a long replay are tens of thousands of small messages,
// nearly all {"now":…,"events":[{"timestamp":…,"type":"EXECUTE_JOB",
// "data":{"job_id":…,"alloc":…}}…]}. quickReply reads that shape, and
// any key order and spacing, without reflection; on anything else (an
// escape in a string, an unknown or differently cased key, bad JSON) it
// declines, and encoding/json reads the reply and words the error.

type quickScanner struct {
	b []byte
	i int
}

func (s *quickScanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// lit consumes byte c after spaces.
func (s *quickScanner) lit(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters.
func (s *quickScanner) str() (string, bool) {
	if !s.lit('"') {
		return "", false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			v := string(s.b[start:s.i])
			s.i++
			return v, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

// num reads a number as encoding/json accepts it.
func (s *quickScanner) num() (float64, bool) {
	s.ws()
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			break
		}
		s.i++
	}
	tok := s.b[start:s.i]
	if len(tok) == 0 || !json.Valid(tok) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	return v, err == nil
}

// object reads a flat object of string values whose keys are in keys,
// calling set for each; it declines nested values.
func (s *quickScanner) object(set func(key, value string) bool) bool {
	if !s.lit('{') {
		return false
	}
	if s.lit('}') {
		return true
	}
	for {
		k, ok := s.str()
		if !ok || !s.lit(':') {
			return false
		}
		v, ok := s.str()
		if !ok || !set(k, v) {
			return false
		}
		if s.lit('}') {
			return true
		}
		if !s.lit(',') {
			return false
		}
	}
}

// quickExecute is EXECUTE_JOB's data as quickReply reads it.
type quickExecute struct {
	jobID, alloc string
}

// quickReply reads a reply of the common shape, or declines.
func quickReply(b []byte) (now float64, events []inEvent, ok bool) {
	s := &quickScanner{b: b}
	var haveNow, haveEvents bool
	if !s.lit('{') {
		return
	}
	for first := true; ; first = false {
		if first && s.lit('}') {
			break
		}
		k, kok := s.str()
		if !kok || !s.lit(':') {
			return
		}
		switch k {
		case "now":
			if now, ok = s.num(); !ok {
				return
			}
			haveNow = true
		case "events":
			if events, ok = s.events(); !ok {
				return
			}
			haveEvents = true
		default:
			return now, nil, false
		}
		if s.lit('}') {
			break
		}
		if !s.lit(',') {
			return now, nil, false
		}
	}
	s.ws()
	return now, events, haveNow && haveEvents && s.i == len(s.b)
}

func (s *quickScanner) events() ([]inEvent, bool) {
	if !s.lit('[') {
		return nil, false
	}
	events := []inEvent{}
	if s.lit(']') {
		return events, true
	}
	for {
		var ts float64
		var typ string
		var ex quickExecute
		var haveTS, haveType, haveData bool
		if !s.lit('{') {
			return nil, false
		}
		for {
			k, ok := s.str()
			if !ok || !s.lit(':') {
				return nil, false
			}
			switch k {
			case "timestamp":
				if ts, ok = s.num(); !ok {
					return nil, false
				}
				haveTS = true
			case "type":
				if typ, ok = s.str(); !ok {
					return nil, false
				}
				haveType = true
			case "data":
				var jobID, alloc bool
				if !s.object(func(k, v string) bool {
					switch k {
					case "job_id":
						ex.jobID, jobID = v, true
					case "alloc":
						ex.alloc, alloc = v, true
					default:
						return false
					}
					return true
				}) || !jobID || !alloc {
					return nil, false
				}
				haveData = true
			default:
				return nil, false
			}
			if s.lit('}') {
				break
			}
			if !s.lit(',') {
				return nil, false
			}
		}
		if !haveTS || !haveType || !haveData || typ != "EXECUTE_JOB" {
			return nil, false
		}
		events = append(events, inEvent{Timestamp: &ts, Type: &typ, Data: json.RawMessage("{}"), exec: &ex})
		if s.lit(']') {
			return events, true
		}
		if !s.lit(',') {
			return nil, false
		}
	}
}
