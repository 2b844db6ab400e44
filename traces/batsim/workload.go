package batsim

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// WorkloadReader serves the jobs of one Batsim JSON workload in submit
// order. The whole file is read and checked when it is opened (Batsim
// workloads are small), so every bad record is known before the first Next.
type WorkloadReader struct {
	jobs  []*sim.Job
	next  int
	nbRes int
	skips traces.Skips
}

var _ sim.Source = (*WorkloadReader)(nil)

// OpenWorkload reads the Batsim workload at path. Whole-file problems (not
// JSON, no "jobs" array) are always errors. A bad job is an error in strict
// mode (the first one in file order) and is skipped and counted otherwise;
// every error is a *traces.ParseError.
func OpenWorkload(path string, opt traces.Options) (*WorkloadReader, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b { // a gzipped workload, .json.gz
		gz, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
		if data, err = io.ReadAll(gz); err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
	}
	return ParseWorkload(path, data, opt)
}

// ParseWorkload is OpenWorkload on bytes already in memory (embedded
// workloads, tests); name is the file name used in errors.
func ParseWorkload(name string, data []byte, opt traces.Options) (*WorkloadReader, error) {
	p := &workloadParser{file: name, data: data, opt: opt, profiles: map[string]*profile{}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return &WorkloadReader{jobs: p.jobs, nbRes: p.nbRes, skips: p.skips}, nil
}

// Next returns the next job in (subtime, position in file) order, or io.EOF
// after the last one.
func (r *WorkloadReader) Next() (*sim.Job, error) {
	if r.next >= len(r.jobs) {
		return nil, io.EOF
	}
	r.next++
	return r.jobs[r.next-1], nil
}

// Len is the number of jobs the reader serves in all (skipped jobs excluded).
func (r *WorkloadReader) Len() int { return len(r.jobs) }

// NbRes is the workload's nb_res field: the number of hosts it was made for
// (Batsim's --mmax-workload), or 0 when the file has none.
func (r *WorkloadReader) NbRes() int { return r.nbRes }

// Skips counts the jobs dropped in lenient mode, by reason.
func (r *WorkloadReader) Skips() traces.Skips { return r.skips }

// delayTypes are the profile type names whose jobs can be replayed: "delay"
// up to Batsim 4, "DelayProfile" since Batsim 5.
var delayTypes = map[string]bool{"delay": true, "DelayProfile": true}

// profile is one entry of "profiles", resolved on first use.
type profile struct {
	raw     json.RawMessage
	checked bool
	runtime sim.Time
	err     error // why jobs using it cannot be replayed
}

type workloadParser struct {
	file     string
	data     []byte
	opt      traces.Options
	lines    []int // byte offset of the start of each line
	nbRes    int
	profiles map[string]*profile
	jobs     []*sim.Job
	skips    traces.Skips
}

// rawJob is one element of "jobs" and where it starts.
type rawJob struct {
	raw  json.RawMessage
	line int
}

func (p *workloadParser) parse() error {
	data := bytes.TrimPrefix(p.data, []byte("\xef\xbb\xbf")) // a UTF-8 BOM
	bom := len(p.data) - len(data)
	p.lines = lineStarts(p.data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()

	tok, err := dec.Token()
	if err != nil {
		return p.jsonError(err, bom)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return p.fileError("", fmt.Errorf("not a Batsim workload: the top level is not a JSON object"))
	}
	var raws []rawJob
	sawJobs := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return p.jsonError(err, bom)
		}
		key, _ := tok.(string) // object keys are always strings
		keyLine := p.lineAt(bom + int(dec.InputOffset()))
		switch key {
		case "jobs":
			sawJobs = true
			tok, err := dec.Token()
			if err != nil {
				return p.jsonError(err, bom)
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return &traces.ParseError{File: p.file, Line: keyLine, Field: "jobs", Err: errors.New("not an array")}
			}
			raws = raws[:0]
			for dec.More() {
				start := bom + int(dec.InputOffset())
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return p.jsonError(err, bom)
				}
				raws = append(raws, rawJob{raw: raw, line: p.lineAt(p.skipSeparators(start))})
			}
			if _, err := dec.Token(); err != nil { // the closing ']'
				return p.jsonError(err, bom)
			}
		case "profiles":
			var profs map[string]json.RawMessage
			if err := dec.Decode(&profs); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return &traces.ParseError{File: p.file, Line: keyLine, Field: "profiles", Err: errors.New("not an object")}
				}
				return p.jsonError(err, bom)
			}
			p.profiles = make(map[string]*profile, len(profs))
			for name, raw := range profs {
				p.profiles[name] = &profile{raw: raw}
			}
		case "nb_res":
			var n json.Number
			err := dec.Decode(&n)
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return &traces.ParseError{File: p.file, Line: keyLine, Field: "nb_res", Err: errors.New("not a number")}
			} else if err != nil {
				return p.jsonError(err, bom)
			}
			v, err := parseCount(string(n))
			if err != nil || v < 0 {
				return &traces.ParseError{File: p.file, Line: keyLine, Field: "nb_res", Err: fmt.Errorf("%q is not a count of hosts", n)}
			}
			p.nbRes = v
		default: // description, command, date, …: not used
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return p.jsonError(err, bom)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return p.jsonError(err, bom)
	}
	if _, err := dec.Token(); err != io.EOF {
		line := p.lineAt(p.skipSeparators(bom + int(dec.InputOffset())))
		return &traces.ParseError{File: p.file, Line: line, Err: errors.New("data after the top-level object")}
	}
	if !sawJobs {
		return p.fileError("jobs", errors.New("missing"))
	}

	keep := make([]*sim.Job, 0, len(raws))
	seen := make(map[string]int, len(raws)) // job id → line of its first definition
	for _, rj := range raws {
		job, field, reason, err := p.job(rj.raw)
		if err == nil {
			if first, dup := seen[job.ID]; dup {
				field, reason = "id", errors.New("id used by an earlier job")
				err = fmt.Errorf("job %s: id already used by the job on line %d", job.ID, first)
			} else {
				seen[job.ID] = rj.line
			}
		}
		if err != nil {
			full := &traces.ParseError{File: p.file, Line: rj.line, Field: field, Err: err}
			if p.opt.Strict {
				return full
			}
			// Count under "field: reason", without the job id, so that
			// ByReason groups alike records; keep the full error as the
			// example.
			key := reason
			if field != "" {
				key = fmt.Errorf("%s: %w", field, reason)
			}
			wasFirst := p.skips.First == nil
			p.skips.Add(&traces.ParseError{File: p.file, Line: rj.line, Field: field, Err: key})
			if wasFirst {
				p.skips.First = full
			}
			continue
		}
		keep = append(keep, job)
	}
	// Stable: jobs submitted at the same time keep their file order.
	sort.SliceStable(keep, func(a, b int) bool { return keep[a].Submit < keep[b].Submit })
	p.jobs = keep
	return nil
}

// job converts one element of "jobs". On failure it returns the field at
// fault, the reason, and the reason prefixed with the job id when known.
func (p *workloadParser) job(raw json.RawMessage) (job *sim.Job, field string, reason, err error) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		reason = errors.New("a job is not a JSON object")
		return nil, "", reason, reason
	}
	fail := func(id, f string, r error) (*sim.Job, string, error, error) {
		if id == "" {
			return nil, f, r, r
		}
		return nil, f, r, fmt.Errorf("job %s: %w", id, r)
	}

	idRaw, ok := fields["id"]
	if !ok {
		return fail("", "id", errors.New("missing"))
	}
	id, err := jobID(idRaw)
	if err != nil {
		return fail("", "id", err)
	}

	subRaw, ok := fields["subtime"]
	if !ok {
		return fail(id, "subtime", errors.New("missing"))
	}
	submit, err := seconds(subRaw)
	if err != nil {
		return fail(id, "subtime", err)
	}
	if submit < 0 {
		return fail(id, "subtime", errors.New("negative"))
	}

	walltime := sim.NoWalltime
	if wRaw, ok := fields["walltime"]; ok && string(wRaw) != "null" {
		w, err := seconds(wRaw)
		if err != nil {
			return fail(id, "walltime", err)
		}
		switch {
		case w > 0:
			walltime = w
		case w == 0:
			// Batsim accepts -1 (none) or a positive limit; 0 would kill the job at once.
			return fail(id, "walltime", errors.New("zero (use -1 for no limit)"))
		}
	}

	resRaw, ok := fields["res"]
	if !ok {
		return fail(id, "res", errors.New("missing"))
	}
	res, err := parseCount(string(bytes.TrimSpace(resRaw)))
	if err != nil {
		return fail(id, "res", errors.New("not an integer number of hosts"))
	}
	if res < 0 {
		return fail(id, "res", errors.New("negative"))
	}
	if res == 0 {
		return fail(id, "res", errors.New("zero hosts requested"))
	}

	profRaw, ok := fields["profile"]
	if !ok {
		return fail(id, "profile", errors.New("missing"))
	}
	var profName string
	if !isString(profRaw) || json.Unmarshal(profRaw, &profName) != nil {
		return fail(id, "profile", errors.New("not a string"))
	}
	prof, ok := p.profiles[profName]
	if !ok {
		return fail(id, "profile", fmt.Errorf("profile %q is not defined", profName))
	}
	runtime, err := prof.resolve(profName)
	if err != nil {
		return fail(id, "profile", err)
	}

	return &sim.Job{
		ID:       id,
		Submit:   submit,
		Runtime:  runtime,
		Walltime: walltime,
		Tasks:    res,
		Request:  []sim.Quantity{{Resource: "host", Amount: sim.Units(1)}},
		Gang:     true,
	}, "", nil, nil
}

// resolve checks the profile once and returns the runtime of its jobs.
func (pr *profile) resolve(name string) (sim.Time, error) {
	if pr.checked {
		return pr.runtime, pr.err
	}
	pr.checked = true
	pr.runtime, pr.err = checkProfile(name, pr.raw)
	return pr.runtime, pr.err
}

func checkProfile(name string, raw json.RawMessage) (sim.Time, error) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return 0, fmt.Errorf("profile %q is not a JSON object", name)
	}
	var typ string
	if t, ok := fields["type"]; !ok {
		return 0, fmt.Errorf("profile %q has no type", name)
	} else if !isString(t) || json.Unmarshal(t, &typ) != nil {
		return 0, fmt.Errorf("profile %q: type is not a string", name)
	}
	if !delayTypes[typ] {
		return 0, fmt.Errorf("profile %q has type %q: only delay profiles can be replayed", name, typ)
	}
	d, ok := fields["delay"]
	if !ok {
		return 0, fmt.Errorf("profile %q has no delay", name)
	}
	t, err := seconds(d)
	if err != nil {
		return 0, fmt.Errorf("profile %q: delay: %v", name, err)
	}
	if t < 0 {
		return 0, fmt.Errorf("profile %q: negative delay", name)
	}
	return t, nil
}

// jobID returns a job id as written: a string's text, or a number's digits.
func jobID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", errors.New("bad string")
		}
		if s == "" {
			return "", errors.New("empty")
		}
		return s, nil
	}
	var n json.Number
	if !isNumber(raw) || json.Unmarshal(raw, &n) != nil {
		return "", errors.New("neither a string nor a number")
	}
	return string(raw), nil
}

// isString and isNumber tell a JSON value's kind from its first byte; the
// value has been checked as JSON already.
func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// seconds reads a JSON number of seconds exactly (to the microsecond).
func seconds(raw json.RawMessage) (sim.Time, error) {
	var n json.Number
	if !isNumber(raw) || json.Unmarshal(raw, &n) != nil {
		return 0, errors.New("not a number")
	}
	t, err := sim.ParseSeconds(string(n))
	if err != nil {
		return 0, fmt.Errorf("%s is out of range", n)
	}
	return t, nil
}

// parseCount reads an integer written as "4" or "4.0" (Python writers);
// anything else, including quoted strings, is an error.
func parseCount(s string) (int, error) {
	if v, err := strconv.ParseInt(s, 10, 32); err == nil {
		return int(v), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	return int(f), nil
}

// jsonError turns a decoder error into a *traces.ParseError with the line
// of the offending byte. A json.Decoder's SyntaxError offsets are not
// always from the start of the stream, so the document is checked again
// whole, which finds the same first error at an absolute offset.
func (p *workloadParser) jsonError(err error, bom int) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	if errors.As(err, &se) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		var v json.RawMessage
		if errors.As(json.Unmarshal(p.data[bom:], &v), &se) {
			line := p.lineAt(bom + int(se.Offset) - 1)
			if se.Offset >= int64(len(p.data)-bom) { // unexpected end
				line = len(p.lines)
			}
			return &traces.ParseError{File: p.file, Line: line, Err: fmt.Errorf("bad JSON: %v", se)}
		}
	}
	if errors.As(err, &te) {
		return &traces.ParseError{File: p.file, Field: te.Field, Err: fmt.Errorf("bad JSON: %v", te)}
	}
	return &traces.ParseError{File: p.file, Err: fmt.Errorf("bad JSON: %v", err)}
}

func (p *workloadParser) fileError(field string, err error) error {
	return &traces.ParseError{File: p.file, Field: field, Err: err}
}

// skipSeparators moves off from whitespace and commas to the next token.
func (p *workloadParser) skipSeparators(off int) int {
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// lineAt returns the 1-based line holding byte offset off.
func (p *workloadParser) lineAt(off int) int {
	if off < 0 {
		off = 0
	}
	return sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })
}

// lineStarts returns the offset of the first byte of every line.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}
