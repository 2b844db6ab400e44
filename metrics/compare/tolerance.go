package compare

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/metrics"
)

// Direction says which way a metric improves.
type Direction int

const (
	Lower   Direction = iota + 1 // lower is better: waits, slowdowns, energy
	Higher                       // higher is better: utilization, Jain's index
	NearOne                      // closer to 1 is better: a simulated / recorded ratio
)

// String is the direction as a tolerance names it (lower, higher, near1).
func (d Direction) String() string {
	switch d {
	case Higher:
		return "higher"
	case NearOne:
		return "near1"
	}
	return "lower"
}

// better says what is better, for titles: "lower is better".
func (d Direction) better() string {
	if d == NearOne {
		return "closer to 1 is better"
	}
	return d.String() + " is better"
}

// Tolerance is how much worse than the base a metric may get: a
// percentage of the base mean, an absolute amount in the metric's unit, or
// off (shown, never a regression).
type Tolerance struct {
	Value    float64
	Relative bool // Value is a percentage of |base mean|
	Off      bool
}

func (t Tolerance) String() string {
	switch {
	case t.Off:
		return "off"
	case t.Relative:
		return strconv.FormatFloat(t.Value, 'f', -1, 64) + "%"
	}
	return strconv.FormatFloat(t.Value, 'f', -1, 64)
}

// amount is the tolerance in the metric's unit, given the base mean.
func (t Tolerance) amount(base float64) float64 {
	if t.Relative {
		return t.Value / 100 * math.Abs(base)
	}
	return t.Value
}

// Metric is a compared summary column with its direction and tolerance.
type Metric struct {
	Name      string
	Direction Direction
	Tolerance Tolerance
	explicit  bool // named in a file or flag: it must exist on both sides
	// calibration marks the default calib_* metrics: compared when both
	// sides have a value, else left out (a run without recorded starts,
	// or a what-if whose transforms changed the jobs, has none).
	calibration bool
}

// Defaults are the metrics compared unless told otherwise, in print
// order. Relative tolerances suit quantities of arbitrary scale; Jain's
// indices live in [0, 1], so theirs is absolute. The calibration metrics
// come last.
func Defaults() []Metric {
	rel := func(p float64) Tolerance { return Tolerance{Value: p, Relative: true} }
	return append([]Metric{
		{Name: metrics.ColMeanWait, Direction: Lower, Tolerance: rel(5)},
		{Name: metrics.ColP95Wait, Direction: Lower, Tolerance: rel(10)},
		{Name: metrics.ColMaxWait, Direction: Lower, Tolerance: Tolerance{Off: true}},
		{Name: metrics.ColMeanSlowdown, Direction: Lower, Tolerance: rel(10)},
		{Name: metrics.ColMeanBSLD, Direction: Lower, Tolerance: rel(5)},
		{Name: metrics.ColMakespan, Direction: Lower, Tolerance: rel(2)},
		{Name: metrics.ColUtilization, Direction: Higher, Tolerance: rel(2)},
		{Name: metrics.ColEnergyKWh, Direction: Lower, Tolerance: rel(2)},
		{Name: metrics.ColJainBSLD, Direction: Higher, Tolerance: Tolerance{Value: 0.02}},
		{Name: metrics.ColJainUsageShare, Direction: Higher, Tolerance: Tolerance{Value: 0.02}},
	}, Calibration()...)
}

// Calibration are the default metrics of a replay's distance from the
// schedule its trace recorded: start-time errors and the wait
// distribution's Kolmogorov–Smirnov distance (lower is better), the mean
// and p95 wait ratios (closer to 1 is better; absolute tolerances, as
// ratios are already relative).
func Calibration() []Metric {
	cal := func(name string, dir Direction, tol Tolerance) Metric {
		return Metric{Name: name, Direction: dir, Tolerance: tol, calibration: true}
	}
	return []Metric{
		cal(metrics.ColCalibStartErrorMedian, Lower, Tolerance{Value: 10, Relative: true}),
		cal(metrics.ColCalibStartErrorP90, Lower, Tolerance{Value: 10, Relative: true}),
		cal(metrics.ColCalibWaitKS, Lower, Tolerance{Value: 0.02}),
		cal(metrics.ColCalibMeanWaitRatio, NearOne, Tolerance{Value: 0.05}),
		cal(metrics.ColCalibP95WaitRatio, NearOne, Tolerance{Value: 0.05}),
	}
}

// knownDirections gives the direction of summary columns a tolerance may
// name without saying it; others need an explicit direction.
func knownDirections() map[string]Direction {
	d := map[string]Direction{}
	for _, m := range Defaults() {
		d[m.Name] = m.Direction
	}
	for _, n := range []string{metrics.ColMedianWait, metrics.ColEnergyJ, metrics.ColJobsKilled, metrics.ColJobsRejected, metrics.ColJobsUnfinished,
		metrics.ColRestarts, metrics.ColPreemptions, metrics.ColLostWork, metrics.ColLostNodeHours, metrics.ColCheckpointOverhead} {
		d[n] = Lower
	}
	d["jobs_completed"] = Higher
	return d
}

// DirectionOf is the direction in which a summary column improves, for
// the columns compare knows.
func DirectionOf(metric string) (Direction, bool) {
	d, ok := knownDirections()[metric]
	return d, ok
}

// RankableMetrics lists the columns with a known direction, sorted.
func RankableMetrics() []string {
	var names []string
	for n := range knownDirections() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Differs says whether b differs from a by more than metric's tolerance
// taken against a (as a comparison with base a would weigh it; for a
// metric better near 1, the change of the distance from 1). Metrics
// without a tolerance, or whose tolerance is off, differ whenever they are
// not equal.
func (t *Tolerances) Differs(metric string, a, b float64) bool {
	for _, m := range t.Metrics {
		if m.Name != metric || m.Tolerance.Off {
			continue
		}
		change := math.Abs(b - a)
		if m.Direction == NearOne {
			change = math.Abs(math.Abs(b-1) - math.Abs(a-1))
		}
		return change > m.Tolerance.amount(a)
	}
	return a != b
}

// Tolerances are the metrics of a comparison, in order, and the
// targets a tolerances file asks about.
type Tolerances struct {
	Metrics []Metric
	Targets []Target
}

// DefaultTolerances returns the default set.
func DefaultTolerances() *Tolerances { return &Tolerances{Metrics: Defaults()} }

// set replaces or appends a metric.
func (t *Tolerances) set(m Metric) {
	for i := range t.Metrics {
		if t.Metrics[i].Name == m.Name {
			t.Metrics[i] = m
			return
		}
	}
	t.Metrics = append(t.Metrics, m)
}

// Only keeps the named metrics, in the order given; a name with no
// tolerance is an error.
func (t *Tolerances) Only(names []string) error {
	var kept []Metric
	var unknown []string
	for _, n := range names {
		found := false
		for _, m := range t.Metrics {
			if m.Name == n {
				m.explicit = true
				kept = append(kept, m)
				found = true
				break
			}
		}
		if !found {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("--metrics: no tolerance for %s (give one with --tolerance NAME=VALUE,DIRECTION)", strings.Join(unknown, ", "))
	}
	t.Metrics = kept
	return nil
}

// parseTolerance reads "5%", "0.02" or "off".
func parseTolerance(s string) (Tolerance, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return Tolerance{Off: true}, nil
	}
	t := Tolerance{}
	num := s
	if strings.HasSuffix(s, "%") {
		t.Relative = true
		num = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return t, fmt.Errorf("want a percentage of the base (5%%), an absolute amount (0.02) or off, got %q", s)
	}
	if v < 0 {
		return t, fmt.Errorf("must be ≥ 0, got %q", s)
	}
	t.Value = v
	return t, nil
}

func parseDirection(s string) (Direction, error) {
	switch strings.TrimSpace(s) {
	case "lower":
		return Lower, nil
	case "higher":
		return Higher, nil
	case "near1":
		return NearOne, nil
	}
	return 0, fmt.Errorf("direction: want lower, higher or near1, got %q", s)
}

// resolve finishes a metric: a direction given or known.
func resolve(name string, tol Tolerance, dir Direction) (Metric, error) {
	if dir == 0 {
		var ok bool
		if dir, ok = knownDirections()[name]; !ok {
			return Metric{}, fmt.Errorf("no known direction for %q: say lower, higher or near1", name)
		}
	}
	return Metric{Name: name, Direction: dir, Tolerance: tol, explicit: true}, nil
}

// SetFlag applies one --tolerance NAME=VALUE[,DIRECTION].
func (t *Tolerances) SetFlag(s string) error {
	name, rest, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("--tolerance %s: want NAME=VALUE[,lower|higher|near1] (mean_bsld=5%%, jain_bsld=0.02, max_wait_s=off)", s)
	}
	value, dirText, hasDir := strings.Cut(rest, ",")
	tol, err := parseTolerance(value)
	if err != nil {
		return fmt.Errorf("--tolerance %s: %v", s, err)
	}
	var dir Direction
	if hasDir {
		if dir, err = parseDirection(dirText); err != nil {
			return fmt.Errorf("--tolerance %s: %v", s, err)
		}
	}
	m, err := resolve(name, tol, dir)
	if err != nil {
		return fmt.Errorf("--tolerance %s: %v", s, err)
	}
	t.set(m)
	return nil
}

// LoadFile applies a tolerances file (see ParseFile).
func (t *Tolerances) LoadFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ms, targets, err := parseTolerancesFile(path, data)
	if err != nil {
		return err
	}
	for _, m := range ms {
		t.set(m)
	}
	t.Targets = append(t.Targets, targets...)
	return nil
}

// ParseFile decodes a tolerances file strictly. It maps metric names to
// a tolerance, or to {tolerance, direction}:
//
//	mean_bsld: 5%          # relative to the base mean
//	jain_bsld: 0.02        # absolute, in the metric's unit
//	max_wait_s: off        # shown, never a regression
//	jobs_killed: {tolerance: 0, direction: lower}
//	my_ratio: {tolerance: 0.1, direction: near1}   # |value − 1| is what worsens
//	target: "p95_wait_s <= 3600"                    # or a list: the planner's questions
//
// Every problem is reported at once, one a line, as "FILE:LINE: message".
func ParseFile(file string, data []byte) ([]Metric, error) {
	ms, _, err := parseTolerancesFile(file, data)
	return ms, err
}

// parseTolerancesFile is ParseFile with the file's targets.
func parseTolerancesFile(file string, data []byte) ([]Metric, []Target, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	if root == nil {
		return nil, nil, fmt.Errorf("%s: empty tolerances file", file)
	}
	type lineErr struct {
		line int
		msg  string
	}
	var errs []lineErr
	fail := func(n *yaml.Node, format string, args ...any) {
		errs = append(errs, lineErr{n.Line, fmt.Sprintf(format, args...)})
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s:%d: want a mapping of metric names to tolerances", file, root.Line)
	}
	var out []Metric
	var targets []Target
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		name := k.Value
		if line, dup := seen[name]; dup {
			fail(k, "%s: given twice (first on line %d)", name, line)
			continue
		}
		seen[name] = k.Line
		if name == "target" {
			targets = append(targets, parseTargetNode(v, fail)...)
			continue
		}
		var tol Tolerance
		var dir Direction
		var err error
		switch v.Kind {
		case yaml.ScalarNode:
			if tol, err = parseTolerance(v.Value); err != nil {
				fail(v, "%s: %v", name, err)
				continue
			}
		case yaml.MappingNode:
			hasTol := false
			bad := false
			for j := 0; j+1 < len(v.Content); j += 2 {
				fk, fv := v.Content[j], v.Content[j+1]
				switch fk.Value {
				case "tolerance":
					hasTol = true
					if tol, err = parseTolerance(fv.Value); err != nil || fv.Kind != yaml.ScalarNode {
						fail(fv, "%s.tolerance: %v", name, err)
						bad = true
					}
				case "direction":
					if dir, err = parseDirection(fv.Value); err != nil || fv.Kind != yaml.ScalarNode {
						fail(fv, "%s.%v", name, err)
						bad = true
					}
				default:
					fail(fk, "%s", strictyaml.UnknownKey(name, fk.Value, []string{"tolerance", "direction"}))
					bad = true
				}
			}
			if !hasTol && !bad {
				fail(v, "%s: no tolerance", name)
				bad = true
			}
			if bad {
				continue
			}
		default:
			fail(v, "%s: want a tolerance (5%%, 0.02, off) or {tolerance, direction}", name)
			continue
		}
		m, err := resolve(name, tol, dir)
		if err != nil {
			fail(k, "%v", err)
			continue
		}
		out = append(out, m)
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(a, b int) bool { return errs[a].line < errs[b].line })
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = fmt.Sprintf("%s:%d: %s", file, e.line, e.msg)
		}
		return nil, nil, errors.New(strings.Join(msgs, "\n"))
	}
	return out, targets, nil
}

// parseTargetNode reads a tolerances file's target: one "METRIC OP VALUE"
// or a list of them.
func parseTargetNode(v *yaml.Node, fail func(*yaml.Node, string, ...any)) []Target {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []Target
	for _, it := range items {
		if it.Kind != yaml.ScalarNode {
			fail(it, "target: want \"METRIC OP VALUE\" (p95_wait_s <= 3600) or a list of them")
			continue
		}
		t, err := ParseTarget(it.Value)
		if err != nil {
			fail(it, "%v", err)
			continue
		}
		out = append(out, t)
	}
	return out
}
