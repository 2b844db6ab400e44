package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Provenance is what a run's run.yaml says about how the run was made:
// enough to tell whether two runs replay the same workload and what else
// differs between them.
type Provenance struct {
	Known       bool   // a run.yaml was read
	Seed        string // the run's --seed, "" when unknown
	Profile     string
	TraceName   string
	TraceSHA256 string
	Cluster     string            // "120 nodes, cpu 120, mem 120"
	Transforms  map[string]string // what-if keys as written; nil when run.yaml does not say
	Policy      map[string]string // queue, backfill, placement, profile
	Power       string            // the power model energy rests on
	Calibration string            // why calib_* are null, when the run says
}

// runYAML is the part of run.yaml compare reads.
type runYAML struct {
	Seed       *uint64   `yaml:"seed"`
	Profile    string    `yaml:"profile"`
	Queue      string    `yaml:"queue"`
	Backfill   string    `yaml:"backfill"`
	Placement  yaml.Node `yaml:"placement"`
	Provenance struct {
		Trace struct {
			Name   string `yaml:"name"`
			SHA256 string `yaml:"sha256"`
		} `yaml:"trace"`
		Cluster struct {
			Nodes  int      `yaml:"nodes"`
			Totals []string `yaml:"totals"`
			Power  string   `yaml:"power"`
		} `yaml:"cluster"`
		Transforms  map[string]yaml.Node `yaml:"transforms"`
		Calibration string               `yaml:"calibration"`
	} `yaml:"provenance"`
}

// readProvenance reads dir/run.yaml; a run directory without one (a
// summary copied alone) has an unknown provenance, not an error.
func readProvenance(dir string) (Provenance, error) {
	file := filepath.Join(dir, "run.yaml")
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return Provenance{}, nil
	}
	if err != nil {
		return Provenance{}, err
	}
	var r runYAML
	if err := yaml.Unmarshal(data, &r); err != nil {
		return Provenance{}, fmt.Errorf("%s: %w", file, err)
	}
	p := Provenance{Known: true, Profile: r.Profile}
	p.Policy = map[string]string{"queue": r.Queue, "backfill": r.Backfill, "placement": nodeText(&r.Placement)}
	if r.Profile != "" {
		p.Policy["profile"] = filepath.Base(r.Profile)
	}
	if r.Seed != nil {
		p.Seed = strconv.FormatUint(*r.Seed, 10)
	}
	pr := &r.Provenance
	p.TraceName, p.TraceSHA256 = pr.Trace.Name, pr.Trace.SHA256
	if pr.Cluster.Nodes > 0 {
		p.Cluster = strings.Join(append([]string{plural(pr.Cluster.Nodes, "node")}, totals(pr.Cluster.Totals)...), ", ")
	}
	if pr.Transforms != nil {
		p.Transforms = map[string]string{}
		for k, v := range pr.Transforms {
			p.Transforms[k] = nodeText(&v)
		}
	}
	p.Power, p.Calibration = pr.Cluster.Power, pr.Calibration
	return p, nil
}

// totals turns run.yaml's "cpu: 100" into "cpu 100", leaving out the
// resources of total 0 (the tags a partition or a label becomes).
func totals(ts []string) []string {
	var out []string
	for _, t := range ts {
		name, amount, _ := strings.Cut(t, ": ")
		if amount != "0" {
			out = append(out, name+" "+amount)
		}
	}
	return out
}

// nodeText is a YAML value as one line: a scalar as written, a sequence
// or mapping in flow style.
func nodeText(n *yaml.Node) string {
	switch n.Kind {
	case 0:
		return ""
	case yaml.ScalarNode:
		return n.Value
	}
	c := *n
	c.Style = yaml.FlowStyle
	for _, k := range c.Content {
		k.Style |= yaml.FlowStyle
	}
	out, err := yaml.Marshal(&c)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(out))
}

// Setup says how the two sides of a comparison relate.
type Setup struct {
	// Kind is "same setup", "what-if" (same workload, another cluster
	// or transform), "policies" (same workload and cluster, other
	// policies), "different workloads" or "unknown" (no run.yaml).
	Kind string
	// Workload names the trace both sides replay ("" when they differ or
	// it is unknown).
	Workload string
	// Differences lists what differs, "cluster: A → B", in a stable order.
	Differences []string
}

// describeSetup compares the provenance of each matched group's sides.
func describeSetup(groups []group) Setup {
	seen := map[string]bool{}
	var diffs []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			diffs = append(diffs, s)
		}
	}
	known, sameTrace, whatIf, policy := true, true, false, false
	workloads := map[string]bool{}
	for _, g := range groups {
		b, c := g.base[0].Prov, g.cand[0].Prov
		if !b.Known || !c.Known {
			known = false
			continue
		}
		if traceID(b) != traceID(c) {
			sameTrace = false
			add(fmt.Sprintf("trace: %s → %s", traceText(b), traceText(c)))
		} else {
			workloads[traceText(b)] = true
		}
		if b.Cluster != c.Cluster {
			whatIf = true
			add(fmt.Sprintf("cluster: %s → %s", b.Cluster, c.Cluster))
		}
		for _, d := range keyDifferences(b.Transforms, c.Transforms) {
			whatIf = true
			add(d)
		}
		for _, d := range keyDifferences(b.Policy, c.Policy) {
			policy = true
			add(d)
		}
	}
	s := Setup{Differences: diffs}
	switch {
	case !sameTrace:
		s.Kind = "different workloads"
	case !known:
		s.Kind = "unknown"
	case whatIf:
		s.Kind = "what-if"
	case policy:
		s.Kind = "policies"
	default:
		s.Kind = "same setup"
	}
	if sameTrace && len(workloads) == 1 {
		for w := range workloads {
			s.Workload = w
		}
	}
	return s
}

// traceID identifies a workload: its content's SHA-256, or its name for
// a run.yaml without one.
func traceID(p Provenance) string {
	if p.TraceSHA256 != "" {
		return p.TraceSHA256
	}
	return p.TraceName
}

func traceText(p Provenance) string {
	name := filepath.Base(p.TraceName)
	if len(p.TraceSHA256) >= 12 {
		return fmt.Sprintf("%s, sha256 %s…", name, p.TraceSHA256[:12])
	}
	return name
}

// keyDifferences lists the keys whose values differ,
// "cluster_factor: none → 1.2", sorted by key.
func keyDifferences(b, c map[string]string) []string {
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range c {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		if b[k] != c[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	out := make([]string, len(names))
	or := func(v string) string {
		if v == "" {
			return "none"
		}
		return v
	}
	for i, k := range names {
		out[i] = fmt.Sprintf("%s: %s → %s", k, or(b[k]), or(c[k]))
	}
	return out
}
