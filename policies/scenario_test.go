package policies_test

// The scenario runner: every testdata/scenarios/*.yaml is a small cluster,
// a placement strategy and a workload, played through the engine with the
// invariant checker, whose outcome per job is compared with the file's
// `expect:` block (ARCHITECTURE.md "Tests": asim's datadriven style). The
// files are documentation first: each opens with a comment saying which
// rule it shows and why the outcome follows, with the arithmetic.
//
// A scenario file holds, in this order:
//
//	# what rule it shows and why the outcome follows
//	cluster:      # the cluster YAML exactly as sim/clusterconfig reads it
//	  nodes: [...]
//	placement:    # a placement.Spec: strategy, resources, attribute,
//	  strategy: … # calculator, limit, scorers
//	script: lxd-default.star  # optional placement script, beside the file
//	backfill: none          # or easy, conservative; default none
//	reservations: repick    # conservative only: keep (default) or repick
//	planning_delay_s: 5     # conservative only: added to walltimes to plan
//	until_s: 100            # optional horizon
//	jobs:
//	  - {id: j1, submit_s: 0, runtime_s: 10, tasks: 2, request: {cpu: 1},
//	     traits: {selector: {zone: a}}, cotask_group: web, gang: false}
//	expect: |     # last: `go test -run Scenarios -update` rewrites it
//	  j1: start 0 on n1,n2
//
// An outcome is `start T on NODE,…` (one node per task), `rejected: REASON`
// or `queued` (still waiting at the horizon; `queued: REASON` when the
// engine says what it waits for). A job with gang: false and several
// tasks has one line per task, ID#0, ID#1, … (the engine runs each task
// as its own job). Each scenario runs twice and
// the two renderings must be byte-identical: placement is deterministic.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/script"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
)

const scenarioDir = "../testdata/scenarios"

// The -update flag may already be defined by another test file of this
// binary (the internal package's tests run first); share it then.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files and scenario expectations")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// scenario is one file, decoded strictly (unknown keys are errors).
type scenario struct {
	Cluster   yaml.Node      `yaml:"cluster"`
	Placement placement.Spec `yaml:"placement"`
	Script    string         `yaml:"script"`
	Backfill  string         `yaml:"backfill"`
	// Reservations and PlanningDelay are policies.Options.
	Reservations  string    `yaml:"reservations"`
	PlanningDelay *seconds  `yaml:"planning_delay_s"`
	Until         *seconds  `yaml:"until_s"`
	Jobs          []jobSpec `yaml:"jobs"`
	Expect        string    `yaml:"expect"`
}

type jobSpec struct {
	ID       string     `yaml:"id"`
	Submit   seconds    `yaml:"submit_s"`
	Runtime  seconds    `yaml:"runtime_s"`
	Walltime *seconds   `yaml:"walltime_s"` // default: the runtime
	Tasks    int        `yaml:"tasks"`      // default 1
	Request  amounts    `yaml:"request"`
	Traits   *traitSpec `yaml:"traits"`
	// Cotask is the job's co-task group; Gang false makes its tasks
	// independent (sim.Job.IndependentTasks).
	Cotask string `yaml:"cotask_group"`
	Gang   *bool  `yaml:"gang"`
}

type traitSpec struct {
	Immunities     []string         `yaml:"immunities"`
	AversionGroups []string         `yaml:"aversion_groups"`
	Selector       labels           `yaml:"selector"`
	Tolerations    []toleration     `yaml:"tolerations"`
	Constraints    []constraintSpec `yaml:"constraints"`
	Architecture   string           `yaml:"architecture"`
	MemberGroup    string           `yaml:"member_group"`
}

type toleration struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

type constraintSpec struct {
	Kind      string `yaml:"kind"`
	Attribute string `yaml:"attribute"`
	Value     string `yaml:"value"`
	Groups    int    `yaml:"groups"`
	Soft      bool   `yaml:"soft"`
}

// seconds reads a decimal number of seconds exactly (sim.ParseSeconds).
type seconds sim.Time

func (s *seconds) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a number of seconds", v.Line)
	}
	t, err := sim.ParseSeconds(v.Value)
	if err != nil || t < 0 {
		return fmt.Errorf("line %d: want a number of seconds ≥ 0, got %q", v.Line, v.Value)
	}
	*s = seconds(t)
	return nil
}

// amounts is a request {resource: amount} in file order; amounts are exact
// decimals (sim.ParseAmount), negative ones included (shortcomings).
type amounts []sim.Quantity

func (a *amounts) UnmarshalYAML(v *yaml.Node) error {
	return pairs(v, func(k, val *yaml.Node) error {
		amt, err := sim.ParseAmount(val.Value)
		if err != nil {
			return fmt.Errorf("line %d: %s: %v", val.Line, k.Value, err)
		}
		*a = append(*a, sim.Quantity{Resource: k.Value, Amount: amt})
		return nil
	})
}

// labels is a selector {key: value} in file order.
type labels []sim.Label

func (l *labels) UnmarshalYAML(v *yaml.Node) error {
	return pairs(v, func(k, val *yaml.Node) error {
		*l = append(*l, sim.Label{Key: k.Value, Value: val.Value})
		return nil
	})
}

// pairs walks a mapping of scalars to scalars, rejecting anything else and
// keys given twice.
func pairs(v *yaml.Node, f func(k, val *yaml.Node) error) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping", v.Line)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || val.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: want key: value", k.Line)
		}
		if seen[k.Value] {
			return fmt.Errorf("line %d: %s given twice", k.Line, k.Value)
		}
		seen[k.Value] = true
		if err := f(k, val); err != nil {
			return err
		}
	}
	return nil
}

func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", scenarioDir)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) { runScenario(t, path) })
	}
}

func runScenario(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("#")) {
		t.Errorf("%s: a scenario opens with a comment saying what it shows and why", path)
	}
	sc, root, err := decodeScenario(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	clusterText, err := subDocument(data, root, "cluster")
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	first := playScenario(t, path, sc, clusterText)
	second := playScenario(t, path, sc, clusterText)
	if first != second {
		t.Fatalf("%s: two runs differ:\n--- first\n%s--- second\n%s", path, first, second)
	}
	if updating() {
		if err := rewriteExpect(path, data, root, first); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := strings.TrimRight(sc.Expect, "\n") + "\n"; first != want {
		t.Errorf("%s: outcome differs from expect (run with -update to rewrite):\n--- got\n%s--- want\n%s", path, first, want)
	}
}

// decodeScenario decodes strictly and checks that expect, when present,
// is the last key (so -update can rewrite the file's tail).
func decodeScenario(data []byte) (*scenario, *yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("want one YAML mapping")
	}
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "expect" && i+2 != len(top.Content) {
			return nil, nil, fmt.Errorf("line %d: expect must be the last key", top.Content[i].Line)
		}
	}
	var sc scenario
	if err := strictyaml.Unmarshal("scenario", data, &sc); err != nil {
		return nil, nil, err
	}
	if sc.Cluster.Kind == 0 {
		return nil, nil, fmt.Errorf("no cluster")
	}
	if len(sc.Jobs) == 0 {
		return nil, nil, fmt.Errorf("no jobs")
	}
	return &sc, top, nil
}

// subDocument returns key's value as the text written in the file,
// dedented and preceded by blank lines so that line numbers in
// clusterconfig's messages are the file's. A value written in flow style
// on the key's own line is re-encoded instead.
func subDocument(data []byte, top *yaml.Node, key string) ([]byte, error) {
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if k.Value != key {
			continue
		}
		if v.Line == k.Line {
			return yaml.Marshal(v)
		}
		lines := strings.Split(string(data), "\n")
		end := len(lines)
		if i+2 < len(top.Content) {
			end = top.Content[i+2].Line - 1
		}
		indent := strings.Repeat(" ", v.Column-1)
		var b strings.Builder
		for l := 0; l < k.Line; l++ {
			b.WriteByte('\n')
		}
		for _, line := range lines[k.Line:end] {
			if s, ok := strings.CutPrefix(line, indent); ok {
				line = s
			} else {
				line = strings.TrimLeft(line, " ") // a blank or a comment
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
		return []byte(b.String()), nil
	}
	return nil, fmt.Errorf("no %s", key)
}

// playScenario runs the scenario once, from scratch, and renders each
// job's outcome in file order.
func playScenario(t *testing.T, path string, sc *scenario, clusterText []byte) string {
	t.Helper()
	cluster, err := clusterconfig.ParseCluster(clusterText, path)
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := placement.Build(cluster, sc.Placement)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if sc.Script != "" {
		s, err := script.Load(script.Config{Path: filepath.Join(filepath.Dir(path), sc.Script)})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := script.Attach(pipe, s); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	backfill := policies.NoBackfill
	if sc.Backfill != "" {
		if backfill, err = policies.ParseBackfill(sc.Backfill); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	opts := policies.Options{}
	if opts.Reservations, err = policies.ParseReservations(sc.Reservations); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if sc.PlanningDelay != nil {
		opts.PlanningDelay = sim.Time(*sc.PlanningDelay)
	}
	sched, err := policies.NewBatchWith(backfill, cluster, pipe, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	jobs, err := buildJobs(sc.Jobs)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rec := &outcomes{cluster: cluster, got: map[string]string{}}
	check := sim.NewChecker(cluster)
	cfg := sim.Config{}
	if sc.Until != nil {
		cfg.Until = sim.Time(*sc.Until)
	}
	if err := sim.NewEngine(cluster, &sim.SliceSource{Jobs: jobs}, sched, cfg, check, rec).Run(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := check.Err(); err != nil {
		t.Errorf("%s: %v", path, err)
	}
	var b strings.Builder
	for _, j := range jobs {
		ids := []string{j.ID}
		if j.IndependentTasks && j.Tasks > 1 {
			ids = ids[:0]
			for i := range j.Tasks {
				ids = append(ids, fmt.Sprintf("%s#%d", j.ID, i))
			}
		}
		for _, id := range ids {
			out, ok := rec.got[id]
			if !ok {
				out = "queued"
			}
			fmt.Fprintf(&b, "%s: %s\n", id, out)
		}
	}
	return b.String()
}

// buildJobs turns the file's jobs into sim.Jobs, checking ids are unique
// and submit times in order (the engine's Source contract).
func buildJobs(specs []jobSpec) ([]*sim.Job, error) {
	seen := map[string]bool{}
	jobs := make([]*sim.Job, 0, len(specs))
	for i, s := range specs {
		if s.ID == "" || seen[s.ID] {
			return nil, fmt.Errorf("jobs[%d]: id %q is empty or used twice", i, s.ID)
		}
		seen[s.ID] = true
		j := &sim.Job{ID: s.ID, Submit: sim.Time(s.Submit), Runtime: sim.Time(s.Runtime), Walltime: sim.Time(s.Runtime),
			Tasks: s.Tasks, Request: []sim.Quantity(s.Request)}
		if s.Walltime != nil {
			j.Walltime = sim.Time(*s.Walltime)
		}
		if j.Tasks == 0 {
			j.Tasks = 1
		}
		j.CotaskGroup = s.Cotask
		j.Gang = s.Gang == nil || *s.Gang
		j.IndependentTasks = !j.Gang
		if i > 0 && j.Submit < jobs[i-1].Submit {
			return nil, fmt.Errorf("jobs[%d] (%s): submitted before the job above it", i, s.ID)
		}
		if tr := s.Traits; tr != nil {
			j.Traits = &sim.Traits{Immunities: tr.Immunities, AversionGroups: tr.AversionGroups,
				Selector: []sim.Label(tr.Selector), Architecture: tr.Architecture, MemberGroup: tr.MemberGroup}
			for _, x := range tr.Tolerations {
				j.Traits.Tolerations = append(j.Traits.Tolerations, sim.Toleration{Key: x.Key, Value: x.Value, Effect: x.Effect})
			}
			for k, c := range tr.Constraints {
				con := sim.Constraint{Kind: c.Kind, Attribute: c.Attribute, Value: c.Value, Groups: c.Groups, Soft: c.Soft}
				if err := placement.CheckConstraint(con); err != nil {
					return nil, fmt.Errorf("jobs[%d] (%s): constraints[%d]: %v", i, s.ID, k, err)
				}
				j.Traits.Constraints = append(j.Traits.Constraints, con)
			}
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// outcomes is an observer noting where each job started or why it was
// rejected.
type outcomes struct {
	cluster *sim.Cluster
	got     map[string]string
}

func (o *outcomes) Submitted(sim.Time, *sim.JobRun) {}
func (o *outcomes) Started(now sim.Time, j *sim.JobRun) {
	names := make([]string, len(j.Nodes))
	for i, n := range j.Nodes {
		names[i] = o.cluster.Nodes[n].Name
	}
	o.got[j.Job.ID] = fmt.Sprintf("start %s on %s", now, strings.Join(names, ","))
}
func (o *outcomes) Ended(sim.Time, *sim.JobRun) {}
func (o *outcomes) Rejected(now sim.Time, j *sim.JobRun) {
	o.got[j.Job.ID] = "rejected: " + j.Reason
}
func (o *outcomes) Stepped(sim.Time, *sim.Context) {}
func (o *outcomes) Finished(_ sim.Time, c *sim.Context) {
	for _, j := range c.Queue() {
		if j.Status == sim.Queued && j.Reason != "" {
			o.got[j.Job.ID] = "queued: " + j.Reason
		}
	}
}

// rewriteExpect replaces the file's expect block (its last key) with got,
// or appends one, leaving everything above it as written.
func rewriteExpect(path string, data []byte, top *yaml.Node, got string) error {
	head := string(data)
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "expect" {
			lines := strings.SplitAfter(head, "\n")
			head = strings.Join(lines[:top.Content[i].Line-1], "")
		}
	}
	if head != "" && !strings.HasSuffix(head, "\n") {
		head += "\n"
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("expect: |\n")
	for _, line := range strings.SplitAfter(got, "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
