package experiment

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/registry"
)

// Defaults of the axes a spec leaves out: the replay's own defaults.
const (
	DefaultQueue     = "fcfs"
	DefaultBackfill  = "easy"
	DefaultPlacement = "first-fit"
	// DefaultCluster names the trace's own cluster (no clusters given).
	DefaultCluster = "default"
)

// Value is a parameter value: a number or a string.
type Value struct {
	Num   float64
	Str   string
	IsNum bool
}

// String is the value as it appears in keys, columns and replay settings.
func (v Value) String() string {
	if v.IsNum {
		return formatFloat(v.Num)
	}
	return v.Str
}

func num(f float64) Value   { return Value{Num: f, IsNum: true} }
func str(s string) Value    { return Value{Str: s} }
func (v Value) key() string { return safe(v.String()) }

// scalarValue converts a decoded YAML scalar into a Value.
func scalarValue(v any) (Value, error) {
	switch x := v.(type) {
	case int:
		return num(float64(x)), nil
	case uint64:
		return num(float64(x)), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Value{}, fmt.Errorf("want a finite number, got %v", x)
		}
		return num(x), nil
	case string:
		return str(x), nil
	case bool:
		return str(strconv.FormatBool(x)), nil
	}
	return Value{}, fmt.Errorf("want a number or a string, got %v", v)
}

// Param is one swept parameter's value in a run.
type Param struct {
	Name  string
	Value Value
}

// Run is one replay of the experiment.
type Run struct {
	// Key names the run (its directory runs/<key>): readable,
	// filesystem-safe, the same for the same values.
	Key string
	// Seed is the run's --seed: RunSeed(spec seed, Key).
	Seed uint64
	// Replica numbers the run among the seeds of its point, from 1.
	Replica   int
	Trace     Trace
	Cluster   Cluster
	Queue     string
	Backfill  string
	Placement string
	// Profile is the lattice profile (a built-in name or a file path);
	// "" unless Queue is lattice.
	Profile string
	// Params are the values of parameters.ranges, in spec order.
	Params []Param
}

// Weights returns the run's w_<factor> parameters as factor → weight.
func (r *Run) Weights() map[string]float64 {
	var w map[string]float64
	for _, p := range r.Params {
		if f, ok := Weight(p.Name); ok {
			if w == nil {
				w = map[string]float64{}
			}
			w[f] = p.Value.Num
		}
	}
	return w
}

// ParamColumns are the summary's parameter columns, in order: the axes,
// then the ranges in spec order. Run.Values gives a run's values.
func (s *Spec) ParamColumns() []string {
	var cols []string
	for _, axis := range []string{"trace", "cluster", "queue", "backfill", "placement", "profile"} {
		cols = append(cols, metrics.ParamPrefix+axis)
	}
	for _, r := range s.Parameters.Ranges {
		cols = append(cols, metrics.ParamPrefix+r.Name)
	}
	return cols
}

// Values are the run's values of Spec.ParamColumns.
func (r *Run) Values() []Value {
	vals := []Value{str(r.Trace.Name), str(r.Cluster.Name), str(r.Queue), str(r.Backfill), str(r.Placement), str(profileName(r.Profile))}
	for _, p := range r.Params {
		vals = append(vals, p.Value)
	}
	return vals
}

// TraceName is the name of trace i: its name, else its file name without
// the format extensions.
func (s *Spec) TraceName(i int) string {
	t := s.Traces[i]
	if t.Name != "" {
		return t.Name
	}
	name := t.Path[strings.LastIndexByte(t.Path, '/')+1:]
	for _, ext := range []string{".gz", ".swf", ".json", ".jsonl", ".ndjson", ".csv"} {
		name = strings.TrimSuffix(name, ext)
	}
	return safe(name)
}

// profileName is a profile's name in keys: a file's base name without
// its extension.
func profileName(p string) string {
	if !IsProfileFile(p) {
		return p
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	return safe(strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml"))
}

// Runs makes the spec's runs in key order, all at once: for the few runs
// of tests and tune; a sweep iterates Plan instead, which holds none.
func (s *Spec) Runs() ([]Run, error) {
	p, err := s.Plan()
	if err != nil {
		return nil, err
	}
	runs := make([]Run, 0, p.Len())
	for _, r := range p.All() {
		runs = append(runs, r)
	}
	return runs, nil
}

func (s *Spec) queues() []string { return orDefault(s.Policies.Queue, DefaultQueue) }

// profilesFor is the profile axis of queue q: only an order that reads
// weight profiles (lattice) has one.
func (s *Spec) profilesFor(q string) []string {
	if !readsProfiles(q) {
		return []string{""}
	}
	return orDefault(s.Profiles, lattice.DefaultProfile)
}

// readsProfiles says whether queue order q ranks by a weight profile
// (registry.Order.Profiles).
func readsProfiles(q string) bool {
	o, err := registry.LookupOrder(q)
	return err == nil && o.Profiles
}

func orDefault(axis []string, def string) []string {
	if len(axis) == 0 {
		return []string{def}
	}
	return axis
}

// maxKey is the longest key kept whole (file names may have 255 bytes);
// longer keys keep a prefix, a hash of the whole and the seed part.
const maxKey = 200

// A key joins the run's values: trace__cluster__queue__backfill__
// placement[__profile][__name=value…]__seed=N (Plan builds it segment by
// segment, in key order).

// cutKey is key (ending in a tail of tailLen bytes) kept whole up to
// maxKey bytes, else a prefix, a hash of the whole and the tail.
func cutKey(key string, tailLen int) string {
	if len(key) <= maxKey {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return key[:maxKey-tailLen-13] + "~" + hex.EncodeToString(sum[:6]) + key[len(key)-tailLen:]
}

// RunSeed derives a run's seed from the base seed and the run's key alone
// (SHA-256, 63 bits so it fits a signed 64-bit column).
func RunSeed(base uint64, key string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], base)
	h.Write(b[:])
	h.Write([]byte(key))
	return binary.BigEndian.Uint64(h.Sum(nil)) >> 1
}

// safe maps a string onto the characters keys may hold: letters, digits
// and . _ + - =; anything else becomes '-'.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._+-=", r):
			return r
		}
		return '-'
	}, s)
}

// DefaultMaxRuns is how many runs a sweep plans at most unless --max-runs
// (Spec.MaxRuns) raises it: planning holds no run, but every run has a
// directory and a row of the summary, which is held until written; a
// million seeds or a 1000×1000 grid by mistake would replay for days.
const DefaultMaxRuns = 100_000

func (s *Spec) runLimit() int {
	if s.MaxRuns > 0 {
		return s.MaxRuns
	}
	return DefaultMaxRuns
}

// Count is how many runs Runs makes, from the axes' sizes without making
// them (random and LHS samples counted before repeats are dropped); it
// saturates at math.MaxInt64.
func (s *Spec) Count() int64 {
	n := int64(0)
	for _, q := range s.queues() {
		n = satAdd(n, int64(len(s.profilesFor(q))))
	}
	n = satMul(n, int64(len(s.Traces)))
	n = satMul(n, int64(max(len(s.Clusters), 1)))
	n = satMul(n, int64(len(orDefault(s.Policies.Backfill, DefaultBackfill))))
	n = satMul(n, int64(len(orDefault(s.Policies.Placement, DefaultPlacement))))
	n = satMul(n, s.pointCount())
	return satMul(n, int64(max(s.Seeds, 1)))
}

// pointCount is how many parameter points points draws, at most.
func (s *Spec) pointCount() int64 {
	ps := &s.Parameters
	switch {
	case len(ps.Ranges) == 0:
		return 1
	case ps.Sampling == Random || ps.Sampling == LHS:
		return int64(max(ps.Samples, 0))
	}
	n := int64(1)
	for _, r := range ps.Ranges {
		if len(r.Values) > 0 {
			n = satMul(n, int64(len(r.Values)))
		} else {
			n = satMul(n, int64(max(r.Steps, 1)))
		}
	}
	return n
}

// countFactors says where the count comes from.
func (s *Spec) countFactors() string {
	return fmt.Sprintf("%d traces × %d clusters × policies and profiles × %s parameter points × %d seeds",
		len(s.Traces), max(len(s.Clusters), 1), countText(s.pointCount()), max(s.Seeds, 1))
}

func countText(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9.2e18"
	}
	return strconv.FormatInt(n, 10)
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// sampledPoints draws Samples random or Latin-hypercube points (repeated
// points kept once): held whole, as the sampling draws every range's
// values in turn (a grid's points are Plan's axes, never held).
func (s *Spec) sampledPoints() ([][]Param, error) {
	ps := &s.Parameters
	switch ps.Sampling {
	case Random, LHS:
		seed := s.Seed
		if ps.Seed != nil {
			seed = *ps.Seed
		}
		rng := rand.New(rand.NewPCG(seed, 0x5ee9))
		n := ps.Samples
		// u[j][i] ∈ [0, 1): where sample i falls in range j.
		u := make([][]float64, len(ps.Ranges))
		for j := range ps.Ranges {
			u[j] = make([]float64, n)
			var perm []int
			if ps.Sampling == LHS {
				perm = rng.Perm(n)
			}
			for i := range n {
				if perm != nil {
					u[j][i] = (float64(perm[i]) + rng.Float64()) / float64(n)
				} else {
					u[j][i] = rng.Float64()
				}
			}
		}
		seen := map[string]bool{}
		var pts [][]Param
		for i := range n {
			pt := make([]Param, len(ps.Ranges))
			var id strings.Builder
			for j, r := range ps.Ranges {
				pt[j] = Param{r.Name, r.at(u[j][i])}
				id.WriteString(pt[j].Value.String() + "\x00")
			}
			if !seen[id.String()] {
				seen[id.String()] = true
				pts = append(pts, pt)
			}
		}
		return pts, nil
	}
	return nil, errors.New("unknown sampling " + ps.Sampling)
}

// discrete lists a range's values: its list, or Steps evenly spaced
// values from Min to Max (Min alone for one step).
func (r *Range) discrete() []Value {
	if len(r.Values) > 0 {
		vals := make([]Value, len(r.Values))
		for i, v := range r.Values {
			vals[i], _ = scalarValue(v)
		}
		return vals
	}
	lo, hi := *r.Min, *r.Max
	steps := max(r.Steps, 1)
	vals := make([]Value, 0, steps)
	for i := range steps {
		x := lo
		if steps > 1 {
			x = lo + (hi-lo)*float64(i)/float64(steps-1)
		}
		vals = append(vals, num(r.round(x)))
	}
	return vals
}

// at maps u ∈ [0, 1) into the range: a list entry (or grid step) by index,
// else a number between Min and Max, rounded to 6 significant digits so
// keys stay readable and the value run is the value in the key.
func (r *Range) at(u float64) Value {
	if len(r.Values) > 0 || r.Steps > 0 {
		vals := r.discrete()
		return vals[min(int(u*float64(len(vals))), len(vals)-1)]
	}
	x := *r.Min + u*(*r.Max-*r.Min)
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return num(r.round(x))
}

func (r *Range) round(x float64) float64 {
	if r.Integer {
		return math.Round(x)
	}
	return x
}

// ParseShard reads "i/n" (0 ≤ i < n).
func ParseShard(s string) (index, count int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		index, err = strconv.Atoi(a)
		if err == nil {
			count, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || count < 1 || index < 0 || index >= count {
		return 0, 0, fmt.Errorf("want i/n with 0 ≤ i < n, got %q", s)
	}
	return index, count, nil
}
