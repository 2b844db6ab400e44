package native

import (
	"errors"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// field names one column of the schema.
type field uint8

const (
	fID field = iota
	fSubmit
	fRuntime
	fWalltime
	fTasks
	fRequest
	fUser
	fGroup
	fQueue
	fPartition
	fPriority
	fGang
	// What the trace recorded about the job (sim.Job.QOS,
	// RequestedProcs, RecordedStart), optional: a writer adds their
	// columns only when some job has them.
	fQOS
	fRequestedProcs
	fRecordedStart
	// The placement traits (sim.Traits), all optional.
	fImmunities
	fAversionGroups
	fSelector
	fTolerations
	fConstraints
	fArchitecture
	fMemberGroup
	fProject
	fLabels
	// depends_on (deps.go), optional, is a job field but written like the
	// structured traits: a JSON list, compact JSON in a CSV cell.
	fDependsOn
	numFields
)

// firstOptional is the first of the fields a CSV or Parquet writer adds
// only when some job has them (Columns): the recorded fields, the traits
// and depends_on. firstTrait is the first of the trait fields.
const (
	firstOptional = fQOS
	firstTrait    = fImmunities
)

// fieldNames is the schema's spelling of each field, in the order a writer
// emits them.
var fieldNames = [numFields]string{
	fID:        "id",
	fSubmit:    "submit_s",
	fRuntime:   "runtime_s",
	fWalltime:  "walltime_s",
	fTasks:     "tasks",
	fRequest:   "request",
	fUser:      "user",
	fGroup:     "group",
	fQueue:     "queue",
	fPartition: "partition",
	fPriority:  "priority",
	fGang:      "gang",

	fQOS:            "qos",
	fRequestedProcs: "requested_procs",
	fRecordedStart:  "recorded_start_s",

	fImmunities:     "immunities",
	fAversionGroups: "aversion_groups",
	fSelector:       "selector",
	fTolerations:    "tolerations",
	fConstraints:    "constraints",
	fArchitecture:   "architecture",
	fMemberGroup:    "member_group",
	fProject:        "project",
	fLabels:         "labels",
	fDependsOn:      "depends_on",
}

func (f field) String() string { return fieldNames[f] }

// lookupField finds a field by its schema name.
func lookupField(name string) (field, bool) {
	for f := range numFields { // not range fieldNames, which copies the array
		if fieldNames[f] == name {
			return f, true
		}
	}
	return 0, false
}

// kind is how a field's value is written.
type kind uint8

const (
	kString kind = iota
	kNumber
	kBool
	kObject  // request: resource → number
	kStrings // a list of strings
	kLabels  // an object of string → string, in file order
	kList    // a list of objects (tolerations, constraints)
	kDeps    // depends_on: a list of job ids or objects
)

func (f field) kind() kind {
	switch f {
	case fSubmit, fRuntime, fWalltime, fTasks, fPriority, fRequestedProcs, fRecordedStart:
		return kNumber
	case fGang:
		return kBool
	case fRequest:
		return kObject
	case fImmunities, fAversionGroups:
		return kStrings
	case fSelector, fLabels:
		return kLabels
	case fTolerations, fConstraints:
		return kList
	case fDependsOn:
		return kDeps
	}
	return kString
}

// structured reports whether f's value is a JSON list or object (in CSV, a
// cell of compact JSON).
// The first test keeps the job's own fields to one comparison.
func (f field) structured() bool { return f >= firstTrait && f.kind() >= kStrings }

// maxTime bounds times so that sums of a few of them stay far from the
// int64 limit of sim.Time (about 9.2e12 s).
const maxTime = 1_000_000_000_000 * sim.Second

// maxAmount bounds requirements: within it, decimal text with three
// decimals converts to an Amount and back exactly.
const maxAmount = 1_000_000_000_000 * sim.Milli

// Reasons a record is bad. They carry no values so that a lenient reader's
// Skips.ByReason stays a short table; the ParseError names file, line and
// field.
var (
	errMissing     = errors.New("missing")
	errTwice       = errors.New("given twice")
	errUnknown     = errors.New("unknown field")
	errEmpty       = errors.New("must not be empty")
	errSeconds     = errors.New("not a number of seconds")
	errNegTime     = errors.New("must be ≥ 0")
	errBigTime     = errors.New("must be at most 1e12 s")
	errWalltime    = errors.New("must be ≥ 0, or -1 for unknown")
	errInteger     = errors.New("not an integer")
	errTasks       = errors.New("must be ≥ 1")
	errAmount      = errors.New("not a number")
	errBigAmount   = errors.New("must be within ±1e12")
	errBool        = errors.New("must be true or false")
	errWantString  = errors.New("must be a string")
	errWantNumber  = errors.New("must be a number")
	errWantBool    = errors.New("must be true or false")
	errWantObject  = errors.New("must be an object of resource → number")
	errResName     = errors.New("resource name must not be empty")
	errNotObject   = errors.New("a record must be a JSON object")
	errTrailing    = errors.New("unexpected data after the JSON object")
	errLineTooLong = errors.New("line longer than 16 MiB")
	errTrailingCSV = errors.New("unexpected data after the JSON value")
	errWantStrings = errors.New("must be a list of strings")
	errWantLabels  = errors.New("must be an object of string → string")
	errWantList    = errors.New("must be a list of objects")
	errWantItem    = errors.New("must be an object")
	errKeyName     = errors.New("key must not be empty")
	errEffect      = errors.New("must be NoSchedule or PreferNoSchedule")
	errWantDeps    = errors.New("must be a list of job ids or {job, condition, think_s} objects")
	errWantDep     = errors.New("must be a job id (a string) or an object")
	errCondition   = errors.New("must be success or any")
)

// record accumulates one job while its fields are read.
type record struct {
	job  sim.Job
	seen [numFields]bool
	// reqSeen holds the resources of job.Request once there are more
	// than a scan checks cheaply, so that a trace of thousands of
	// resource columns is checked in linear time.
	reqSeen map[string]struct{}
}

// manyRequests is where addRequest's duplicate check moves from a scan
// of the request to reqSeen.
const manyRequests = 16

// traits returns the job's Traits, allocating them on first use: a job
// without trait fields keeps Traits == nil and costs nothing.
func (r *record) traits() *sim.Traits {
	if r.job.Traits == nil {
		r.job.Traits = new(sim.Traits)
	}
	return r.job.Traits
}

func (r *record) reset() {
	r.job = sim.Job{Walltime: sim.NoWalltime, Tasks: 1, Gang: true}
	r.seen = [numFields]bool{}
	clear(r.reqSeen)
}

// setText sets a string, number or boolean field from its text. For
// numbers, text is the number as written; for booleans, "true"/"false"
// (CSV also accepts what strconv.ParseBool accepts).
func (r *record) setText(f field, text string) error {
	j := &r.job
	switch f {
	case fID:
		if text == "" {
			return errEmpty
		}
		j.ID = text
	case fUser:
		j.User = text
	case fGroup:
		j.Group = text
	case fQueue:
		j.Queue = text
	case fPartition:
		j.Partition = text
	case fQOS:
		j.QOS = text
	case fArchitecture, fMemberGroup, fProject:
		if text == "" {
			return nil // absent
		}
		t := r.traits()
		switch f {
		case fArchitecture:
			t.Architecture = text
		case fMemberGroup:
			t.MemberGroup = text
		default:
			t.Project = text
		}
	case fSubmit, fRuntime:
		t, err := parseTime(text)
		if err != nil {
			return err
		}
		if t < 0 {
			return errNegTime
		}
		if f == fSubmit {
			j.Submit = t
		} else {
			j.Runtime = t
		}
	case fWalltime:
		t, err := parseTime(text)
		if err != nil {
			return err
		}
		switch {
		case t == -sim.Second:
			t = sim.NoWalltime
		case t < 0:
			return errWalltime
		}
		j.Walltime = t
	case fTasks:
		n, err := atoi(text)
		if err != nil {
			return errInteger
		}
		if n < 1 {
			return errTasks
		}
		j.Tasks = n
	case fPriority:
		n, err := atoi(text)
		if err != nil {
			return errInteger
		}
		j.Priority = n
	case fRequestedProcs:
		n, err := atoi(text)
		if err != nil {
			return errInteger
		}
		if n < 0 {
			return errNegTime // the same words: "must be ≥ 0"
		}
		j.RequestedProcs = int64(n)
	case fRecordedStart:
		t, err := parseTime(text)
		if err != nil {
			return err
		}
		j.Recorded, j.RecordedStart = true, t
	case fGang:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return errBool
		}
		j.Gang = b
	}
	return nil
}

// parseTime reads decimal seconds exactly and bounds them.
func parseTime(text string) (sim.Time, error) {
	if !decimal(text) {
		return 0, errSeconds
	}
	t, err := sim.ParseSeconds(text)
	if err != nil {
		return 0, errSeconds
	}
	if t > maxTime || t < -maxTime {
		return 0, errBigTime
	}
	return t, nil
}

// addRequest adds one resource requirement. The caller reports errors with
// the field "request.<res>" (JSONL) or "req_<res>" (CSV).
func (r *record) addRequest(res, text string) error {
	if res == "" {
		return errResName
	}
	if r.hasRequest(res) {
		return errTwice
	}
	a, err := parseAmount(text)
	if err != nil {
		return err
	}
	r.job.Request = append(r.job.Request, sim.Quantity{Resource: res, Amount: a})
	if len(r.job.Request) > manyRequests {
		if len(r.reqSeen) == 0 {
			if r.reqSeen == nil {
				r.reqSeen = map[string]struct{}{}
			}
			for _, q := range r.job.Request[:len(r.job.Request)-1] {
				r.reqSeen[q.Resource] = struct{}{}
			}
		}
		r.reqSeen[res] = struct{}{}
	}
	return nil
}

// hasRequest reports whether the record already requests res.
func (r *record) hasRequest(res string) bool {
	if len(r.job.Request) > manyRequests {
		_, ok := r.reqSeen[res]
		return ok
	}
	for _, q := range r.job.Request {
		if q.Resource == res {
			return true
		}
	}
	return false
}

func parseAmount(text string) (sim.Amount, error) {
	if !decimal(text) {
		return 0, errAmount
	}
	a, err := sim.ParseAmount(text)
	if err != nil {
		return 0, errAmount
	}
	if a > maxAmount || a < -maxAmount {
		return 0, errBigAmount
	}
	return a, nil
}

// finish checks the required fields once the record is complete and returns
// the field that is missing, if any.
func (r *record) finish() (field, error) {
	for _, f := range [...]field{fID, fSubmit, fRuntime} {
		if !r.seen[f] {
			return f, errMissing
		}
	}
	markIndependent(&r.job)
	return 0, nil
}

// decimal reports whether s is made only of the characters of a decimal
// number: sim.ParseSeconds and sim.ParseAmount fall back to
// strconv.ParseFloat, which also takes "inf", hex floats and underscores.
func decimal(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9', c == '.', c == '+', c == '-', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return s != ""
}

// atoi reads a decimal integer (no underscores, no base prefix).
func atoi(s string) (int, error) {
	if !decimal(s) {
		return 0, errInteger
	}
	n, err := strconv.ParseInt(s, 10, 0)
	return int(n), err
}
