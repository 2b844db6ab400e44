package lattice

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/native"
)

const scenarioDir = "../../testdata/lattice"

// scenarioSpec is the part of a run spec a lattice scenario uses.
type scenarioSpec struct {
	Trace   string `yaml:"trace"`
	Cluster string `yaml:"cluster"`
	Lattice Args   `yaml:"lattice"`
}

// endObserver notes when the run ended.
type endObserver struct{ end sim.Time }

func (o *endObserver) Submitted(sim.Time, *sim.JobRun)       {}
func (o *endObserver) Started(sim.Time, *sim.JobRun)         {}
func (o *endObserver) Ended(sim.Time, *sim.JobRun)           {}
func (o *endObserver) Rejected(sim.Time, *sim.JobRun)        {}
func (o *endObserver) Stepped(sim.Time, *sim.Context)        {}
func (o *endObserver) Finished(now sim.Time, _ *sim.Context) { o.end = now }

// runScenario replays a scenario spec of testdata/lattice and returns
// everything it produced as text: the jobs, the services' timeline,
// scale events and accounts.
func runScenario(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(scenarioDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var spec scenarioSpec
	if err := yaml.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(spec.Lattice.Paths(), &spec.Trace, &spec.Cluster) {
		if *p != "" {
			*p = filepath.Join(scenarioDir, *p)
		}
	}
	if errs := spec.Lattice.Validate(""); len(errs) > 0 {
		t.Fatal(errs)
	}
	cl, err := clusterconfig.LoadCluster(spec.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := native.Open(spec.Trace, traces.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var jobs []*sim.Job
	for {
		j, err := tr.Next()
		if err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	s, err := spec.Lattice.Build(cl, "", false)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{out: map[string]*outcome{}}
	end := &endObserver{}
	chk := sim.NewChecker(cl)
	e := sim.NewEngine(cl, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true}, rec, chk, end)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "job %s: %s\n", j.ID, rec.out[j.ID])
	}
	for _, r := range s.ServiceTimeline() {
		fmt.Fprintf(&b, "nodes %s %s: %d held, %d pending\n", r.At, r.Service, r.Nodes, r.Pending)
	}
	for _, ev := range s.ScaleEvents() {
		var names []string
		for _, n := range ev.Nodes {
			names = append(names, cl.Nodes[n].Name)
		}
		fmt.Fprintf(&b, "event %s %s %s %d→%d load %.4g waited %s [%s]\n", ev.At, ev.Service, ev.Action, ev.From, ev.To, ev.Load, ev.Waited, strings.Join(names, " "))
	}
	for _, a := range s.ServiceSummaries(end.end) {
		fmt.Fprintf(&b, "account %s: node_s %g above %s waiting %s at_max %s unable %s cooling %s ups %d downs %d withdrawn %d\n",
			a.Service, a.NodeSeconds, a.Above, a.Waiting, a.AtMax, a.Unable(), a.Cooling, a.Ups, a.Downs, a.Withdrawn)
	}
	return b.String()
}

// TestAutoscaleScenario replays testdata/lattice/autoscale.yaml, whose
// comments carry the arithmetic, twice, and checks every line.
func TestAutoscaleScenario(t *testing.T) {
	got := runScenario(t, "autoscale.yaml")
	if again := runScenario(t, "autoscale.yaml"); again != got {
		t.Fatalf("two runs differ:\n%s\n---\n%s", got, again)
	}
	want := `job A: completed start 0 end 300 on [2 3] 
job B: completed start 300 end 400 on [3] 
job C: completed start 900 end 950 on [0 1 2 3] 
nodes 0 web: 1 held, 0 pending
nodes 150 web: 2 held, 0 pending
nodes 250 web: 2 held, 1 pending
nodes 300 web: 3 held, 0 pending
nodes 600 web: 2 held, 0 pending
nodes 700 web: 1 held, 0 pending
nodes 800 web: 2 held, 0 pending
nodes 900 web: 0 held, 0 pending
event 0 web request 0→1 load +Inf waited 0 []
event 0 web up 0→1 load +Inf waited 0 [a0]
event 150 web request 1→2 load 200 waited 0 []
event 150 web up 1→2 load 200 waited 0 [a1]
event 250 web request 2→3 load 100 waited 0 []
event 300 web up 2→3 load 100 waited 50 [b0]
event 600 web down 3→2 load 13.33 waited 0 [b0]
event 700 web down 2→1 load 20 waited 0 [a1]
event 800 web request 1→2 load 100 waited 0 []
event 800 web up 1→2 load 100 waited 0 [a1]
event 900 web stop 2→0 load 25 waited 0 [a0 a1]
account web: node_s 1850 above 290 waiting 50 at_max 100 unable 150 cooling 140 ups 4 downs 2 withdrawn 0
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A scale-up waiting for nodes is withdrawn when the load falls back: web
// (one node, thresholds 80/30, no cooldown) asks for a second node at 10
// (load 100) while job X holds the other node until 100; at 50 the load is
// 70 ≤ 80, so the request goes. Waiting counts 10…50.
func TestAutoscaleWithdraw(t *testing.T) {
	dir := t.TempDir()
	metric := filepath.Join(dir, "load.csv")
	os.WriteFile(metric, []byte("0,50\n10,100\n50,70\n"), 0o644)
	cl := nodesCluster(t, 2, nil)
	args := Args{Services: []ServiceArgs{{Name: "web", MinNodes: 1, MaxNodes: 2, Metric: metric, ScaleUpAbove: 80, ScaleDownBelow: 30}}}
	s, err := args.Build(cl, "", false)
	if err != nil {
		t.Fatal(err)
	}
	out := runWith(t, cl, s, job("X", 0, 100, 1))
	if o := out["X"]; o.start != 0 || o.nodes[0] != 1 {
		t.Errorf("X: %s, want a start at 0 on node 1 (web holds node 0)", o)
	}
	var actions []string
	for _, ev := range s.ScaleEvents() {
		actions = append(actions, fmt.Sprintf("%s %s", ev.At, ev.Action))
	}
	if got := strings.Join(actions, ", "); got != "0 request, 0 up, 10 request, 50 withdraw" {
		t.Errorf("events: %s", got)
	}
	a := s.ServiceSummaries(secs(100))[0]
	if a.Waiting != secs(40) || a.Above != secs(40) || a.Withdrawn != 1 || a.NodeSeconds != 100 {
		t.Errorf("account: %+v", a)
	}
}

// Bad services are reported each with its key; a bad metric names its
// file, line and field.
func TestServicesValidate(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("time_s,value\n0,5\n10,-1\n"), 0o644)
	args := Args{Services: []ServiceArgs{
		{Name: "a", MinNodes: 3, MaxNodes: 2, Metric: bad, ScaleUpAbove: 10, ScaleDownBelow: 20, MetricKind: "avg"},
		{Name: "a", MaxNodes: 1, ScaleUpAbove: 1, EndS: 5, StartS: 10},
	}}
	var msgs []string
	for _, err := range args.Validate("") {
		msgs = append(msgs, err.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"services[0].max_nodes: must be ≥ 1 and ≥ min_nodes (3), got 2",
		`services[0].metric_kind: want total or per_node, got "avg"`,
		"services[0].scale_down_below: must be below scale_up_above (10), got 20",
		"services[0].metric: " + bad + ":3: field value: want a finite number ≥ 0, got \"-1\"",
		`services[1].name: "a" is also services[0]'s name`,
		"services[1].end_s: must be after start_s (10), or 0 for never, got 5",
		"services[1].metric: give the CSV of the service's load (time_s,value)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
