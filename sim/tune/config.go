package tune

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim"
)

// Search methods.
const (
	CMAES      = "cmaes"
	NelderMead = "nelder-mead"
)

// Constraint bounds the mean of a metric: Metric ≥ Bound (AtLeast) or ≤.
type Constraint struct {
	Metric  string
	AtLeast bool
	Bound   float64
}

func (c Constraint) String() string {
	op := "<="
	if c.AtLeast {
		op = ">="
	}
	return c.Metric + " " + op + " " + strconv.FormatFloat(c.Bound, 'g', -1, 64)
}

// violation is how far value misses the bound, relative to |bound| (1
// for a missing value).
func (c Constraint) violation(value float64) float64 {
	if math.IsNaN(value) {
		return 1
	}
	miss := value - c.Bound
	if c.AtLeast {
		miss = -miss
	}
	if miss <= 0 {
		return 0
	}
	return miss / math.Max(math.Abs(c.Bound), 1e-9)
}

// Axis is one metric of the Pareto front and the way it improves.
type Axis struct {
	Metric string
	Higher bool
}

// Config is the spec's tune: block, resolved.
//
//	tune:
//	  objective: mean_bsld          # minimised; or {maximize: utilization}
//	  constraints: ["jain_bsld >= 0.9", "energy_kwh <= 5000"]
//	  penalty: 10                   # × S per unit of relative violation
//	  factors: [priority, wait_time, fair_share, backlog]   # default: all nine
//	  keep_inert: false             # true: search factors the baseline runs found inert
//	  bounds: [0, 1]                # or per factor: {wait_time: [0, 2]}
//	  start: best                   # a profile name; best: the best named profile
//	  conformance: preferred        # or required, for the tuned profile
//	  method: cmaes                 # or nelder-mead
//	  iterations: 20
//	  population: 10                # CMA-ES (default 4 + ⌊3 ln d⌋)
//	  step: 0.2                     # CMA-ES initial step, Nelder–Mead simplex size
//	  seed: 1                       # default: the spec's seed
//	  pareto: [mean_wait_s, jain_bsld, energy_kwh]
type Config struct {
	Method      string
	Objective   string
	Maximize    bool
	Constraints []Constraint
	Penalty     float64
	Factors     []lattice.Factor
	KeepInert   bool // search the factors found inert too
	Lo, Hi      lattice.Weights
	Start       string // "best" or a profile name
	Required    bool   // the tuned profile requires conformance
	Iterations  int
	Population  int // 0: gonum's default
	Step        float64
	Seed        uint64
	Pareto      []Axis
}

// higherIsBetter gives a metric's direction for the Pareto front: the
// summary's shares and indices go up, everything else (waits, slowdowns,
// energy, makespan, losses) down.
func higherIsBetter(metric string) bool {
	return strings.HasPrefix(metric, metrics.ColUtilization) || strings.HasPrefix(metric, "jain_") || metric == metrics.ColJobsCompleted
}

// defaultConfig is a tune block's defaults.
func defaultConfig(seed uint64) *Config {
	c := &Config{Method: CMAES, Objective: metrics.ColMeanBSLD, Penalty: 10, Start: "best", Iterations: 20, Step: 0.2, Seed: seed}
	for f := range lattice.NumFactors {
		c.Factors = append(c.Factors, lattice.Factor(f))
		c.Hi[f] = 1
	}
	for _, m := range []string{metrics.ColMeanWait, metrics.ColJainBSLD, metrics.ColEnergyKWh} {
		c.Pareto = append(c.Pareto, Axis{m, higherIsBetter(m)})
	}
	return c
}

// configKeys are the keys of a tune block.
var configKeys = []string{"objective", "constraints", "penalty", "factors", "keep_inert", "bounds", "start", "conformance", "method", "iterations", "population", "step", "seed", "pareto"}

// ParseConfig reads a tune: block (a zero node is the defaults). Every
// problem is reported at once, one a line, as "FILE:LINE: tune.KEY: …".
// seed is the spec's, the default of the tune seed.
func ParseConfig(n *yaml.Node, file string, seed uint64) (*Config, error) {
	c := defaultConfig(seed)
	p := &parser{file: file}
	if n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return c, nil
	}
	if n.Kind != yaml.MappingNode {
		p.fail(n, "tune", "want a mapping")
		return nil, p.err()
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := "tune." + k.Value
		if seen[k.Value] {
			p.fail(k, key, "given twice")
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "objective":
			p.objective(v, c)
		case "constraints":
			c.Constraints = nil
			p.list(v, key, func(e *yaml.Node, at string) {
				if ct, ok := p.constraint(e, at); ok {
					c.Constraints = append(c.Constraints, ct)
				}
			})
		case "penalty":
			c.Penalty = p.number(v, key, 0, false)
		case "factors":
			c.Factors = nil
			have := map[lattice.Factor]bool{}
			p.list(v, key, func(e *yaml.Node, at string) {
				f, ok := lattice.FactorByName(e.Value)
				switch {
				case e.Kind != yaml.ScalarNode || !ok:
					p.fail(e, at, "unknown factor %q (known: %s)", e.Value, strings.Join(lattice.FactorNames(), ", "))
				case have[f]:
					p.fail(e, at, "factor %s listed twice", e.Value)
				default:
					have[f] = true
					c.Factors = append(c.Factors, f)
				}
			})
			if len(c.Factors) == 0 && v.Kind == yaml.SequenceNode {
				p.fail(v, key, "list at least one factor")
			}
		case "keep_inert":
			switch p.scalar(v, key) {
			case "true":
				c.KeepInert = true
			case "false":
			default:
				p.fail(v, key, "want true or false, got %q", v.Value)
			}
		case "bounds":
			p.bounds(v, key, c)
		case "start":
			c.Start = p.scalar(v, key)
			if _, ok := lattice.Builtin(c.Start); c.Start != "best" && !ok && c.Start != "" {
				p.fail(v, key, "want best or a built-in profile (%s), got %q", strings.Join(lattice.BuiltinNames(), ", "), c.Start)
			}
		case "conformance":
			switch p.scalar(v, key) {
			case "preferred":
			case "required":
				c.Required = true
			default:
				p.fail(v, key, "want preferred or required, got %q", v.Value)
			}
		case "method":
			c.Method = p.scalar(v, key)
			if c.Method != CMAES && c.Method != NelderMead {
				p.fail(v, key, "want %s or %s, got %q", CMAES, NelderMead, c.Method)
			}
		case "iterations":
			c.Iterations = p.integer(v, key, 1)
		case "population":
			c.Population = p.integer(v, key, 2)
		case "step":
			c.Step = p.number(v, key, 0, true)
		case "seed":
			if s, err := strconv.ParseUint(v.Value, 10, 64); err != nil || v.Kind != yaml.ScalarNode {
				p.fail(v, key, "want a whole number ≥ 0, got %q", v.Value)
			} else {
				c.Seed = s
			}
		case "pareto":
			c.Pareto = nil
			p.list(v, key, func(e *yaml.Node, at string) {
				if p.metric(e, at) {
					c.Pareto = append(c.Pareto, Axis{e.Value, higherIsBetter(e.Value)})
				}
			})
		default:
			p.fail(k, "", "%s", strictyaml.UnknownKey("tune", k.Value, configKeys))
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return c, nil
}

type lineErr struct {
	line int
	msg  string
}

type parser struct {
	file string
	errs []lineErr
}

func (p *parser) fail(n *yaml.Node, key, format string, args ...any) {
	if key != "" {
		key += ": "
	}
	p.errs = append(p.errs, lineErr{n.Line, key + fmt.Sprintf(format, args...)})
}

func (p *parser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	sort.SliceStable(p.errs, func(a, b int) bool { return p.errs[a].line < p.errs[b].line })
	msgs := make([]string, len(p.errs))
	for i, e := range p.errs {
		msgs[i] = fmt.Sprintf("%s:%d: %s", p.file, e.line, e.msg)
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

func (p *parser) scalar(v *yaml.Node, key string) string {
	if v.Kind != yaml.ScalarNode {
		p.fail(v, key, "want a single value")
		return ""
	}
	return v.Value
}

func (p *parser) list(v *yaml.Node, key string, each func(e *yaml.Node, at string)) {
	if v.Kind != yaml.SequenceNode {
		p.fail(v, key, "want a list")
		return
	}
	for i, e := range v.Content {
		each(e, fmt.Sprintf("%s[%d]", key, i))
	}
}

// number reads a finite number ≥ lo (> lo when strict).
func (p *parser) number(v *yaml.Node, key string, lo float64, strict bool) float64 {
	x, err := strconv.ParseFloat(v.Value, 64)
	switch {
	case v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		p.fail(v, key, "want a number, got %q", v.Value)
	case strict && x <= lo:
		p.fail(v, key, "must be > %s, got %s", sim.FormatNumber(lo), v.Value)
	case x < lo:
		p.fail(v, key, "must be ≥ %s, got %s", sim.FormatNumber(lo), v.Value)
	}
	return x
}

func (p *parser) integer(v *yaml.Node, key string, lo int) int {
	x, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || x < lo {
		p.fail(v, key, "want a whole number ≥ %d, got %q", lo, v.Value)
	}
	return x
}

// metric checks that a node names a numeric summary column that does not
// measure the machine.
func (p *parser) metric(n *yaml.Node, key string) bool {
	_, ok := metrics.RunSummaryKind(n.Value)
	if n.Kind != yaml.ScalarNode || !ok || metrics.IsTimingColumn(n.Value) {
		p.fail(n, key, "%q is not a summary metric (mean_bsld, mean_wait_s, jain_bsld, energy_kwh, utilization, …)", n.Value)
		return false
	}
	return true
}

func (p *parser) objective(v *yaml.Node, c *Config) {
	key := "tune.objective"
	switch v.Kind {
	case yaml.ScalarNode:
		if p.metric(v, key) {
			c.Objective, c.Maximize = v.Value, false
		}
	case yaml.MappingNode:
		if len(v.Content) != 2 || (v.Content[0].Value != "minimize" && v.Content[0].Value != "maximize") {
			p.fail(v, key, "want a metric, {minimize: METRIC} or {maximize: METRIC}")
			return
		}
		if p.metric(v.Content[1], key+"."+v.Content[0].Value) {
			c.Objective, c.Maximize = v.Content[1].Value, v.Content[0].Value == "maximize"
		}
	default:
		p.fail(v, key, "want a metric, {minimize: METRIC} or {maximize: METRIC}")
	}
}

// constraint reads "METRIC >= BOUND" or "METRIC <= BOUND".
func (p *parser) constraint(e *yaml.Node, key string) (Constraint, bool) {
	fields := strings.Fields(e.Value)
	if e.Kind != yaml.ScalarNode || len(fields) != 3 || (fields[1] != ">=" && fields[1] != "<=") {
		p.fail(e, key, "want \"METRIC >= BOUND\" or \"METRIC <= BOUND\", got %q", e.Value)
		return Constraint{}, false
	}
	b, err := strconv.ParseFloat(fields[2], 64)
	if err != nil || math.IsNaN(b) || math.IsInf(b, 0) {
		p.fail(e, key, "bound: want a number, got %q", fields[2])
		return Constraint{}, false
	}
	if !p.metric(&yaml.Node{Kind: yaml.ScalarNode, Value: fields[0], Line: e.Line}, key) {
		return Constraint{}, false
	}
	return Constraint{Metric: fields[0], AtLeast: fields[1] == ">=", Bound: b}, true
}

// bounds reads [lo, hi] for every factor or {factor: [lo, hi]}.
func (p *parser) bounds(v *yaml.Node, key string, c *Config) {
	pair := func(n *yaml.Node, at string) (lo, hi float64, ok bool) {
		if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
			p.fail(n, at, "want [min, max]")
			return 0, 0, false
		}
		errs := len(p.errs)
		lo = p.number(n.Content[0], at+"[0]", 0, false)
		hi = p.number(n.Content[1], at+"[1]", 0, false)
		if len(p.errs) > errs {
			return 0, 0, false
		}
		if hi <= lo {
			p.fail(n, at, "max must exceed min, got [%s, %s]", n.Content[0].Value, n.Content[1].Value)
			return 0, 0, false
		}
		return lo, hi, true
	}
	switch v.Kind {
	case yaml.SequenceNode:
		if lo, hi, ok := pair(v, key); ok {
			for f := range lattice.NumFactors {
				c.Lo[f], c.Hi[f] = lo, hi
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			k := v.Content[i]
			f, ok := lattice.FactorByName(k.Value)
			if !ok {
				p.fail(k, key+"."+k.Value, "unknown factor (known: %s)", strings.Join(lattice.FactorNames(), ", "))
				continue
			}
			if lo, hi, ok := pair(v.Content[i+1], key+"."+k.Value); ok {
				c.Lo[f], c.Hi[f] = lo, hi
			}
		}
	default:
		p.fail(v, key, "want [min, max] or {factor: [min, max]}")
	}
}
