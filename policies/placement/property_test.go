package placement

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// Property tests: random small clusters (tags, shortcomings, a ward,
// parents, taints, attributes, default requirements) and random jobs with
// random traits, placed by every strategy over a Ledger, with random
// releases in between. After every step an oracle written here, apart
// from the code under test, checks that
//
//   - the ledger's free amounts are the capacities minus what the live
//     tasks booked on their node and every ancestor defining the resource;
//   - no resource of non-negative capacity is over-committed, on a node or
//     an ancestor;
//   - each task, when placed, fitted by sim/fit.go's rules against the
//     state before it (every listed, non-immune resource defined on the
//     chain and ≥ 0 after, no unlisted non-immune resource negative on the
//     chain, a leaf), and met every hard constraint it carries: selector,
//     NoSchedule taints, architecture, member group, hard Fenzo
//     constraints, exclusive hosts;
//   - a one-task job the oracle can place somewhere is placed (the
//     pipeline does not lose feasible nodes), except under the GPU
//     strategies, whose device model is stricter than the scalar fit.
//
// Everything is seeded (math/rand/v2, PCG) and iterates in fixed orders,
// so a failure reproduces exactly.

// Resources the random world uses. Negative requests appear only on
// "flies" (the shortcoming), so every other resource of non-negative
// capacity must stay ≥ 0 free.
const (
	propSeed  = 20240611
	propSteps = 120
)

func propRand(stream uint64) *rand.Rand { return rand.New(rand.NewPCG(propSeed, stream)) }

// randomCluster builds 2–7 leaves, sometimes under two racks with an
// uplink (and sometimes a rack-level cpu cap), with random tags,
// shortcomings, a ward, taints, attributes and a default requirement.
// withGPU forces a gpu resource (the GPU strategies need one).
func randomCluster(rng *rand.Rand, withGPU bool) (*sim.Cluster, error) {
	leaves := 2 + rng.IntN(6)
	racks := rng.IntN(3) == 0
	defaults := rng.IntN(4) == 0
	gpus := rng.IntN(2) == 0 || withGPU
	var nodes []sim.NodeSpec
	if racks {
		for r := 0; r < 2; r++ {
			caps := []sim.Quantity{{Resource: "uplink", Amount: sim.Units(int64(1 + rng.IntN(4)))}}
			if rng.IntN(2) == 0 {
				caps = append(caps, sim.Quantity{Resource: "cpu", Amount: sim.Units(int64(2 + rng.IntN(8)))})
			}
			nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("r%d", r), Capacity: caps})
		}
	}
	ward := rng.IntN(leaves + 2) // maybe no leaf has the ward
	for i := 0; i < leaves; i++ {
		caps := []sim.Quantity{
			{Resource: "cpu", Amount: sim.Amount(1000 * (2 + rng.IntN(8)))},
			{Resource: "mem", Amount: sim.Units(int64(4 + rng.IntN(13)))},
		}
		if gpus {
			caps = append(caps, sim.Quantity{Resource: "gpu", Amount: sim.Units(int64(rng.IntN(5)))})
		}
		if rng.IntN(3) == 0 {
			caps = append(caps, sim.Quantity{Resource: "ssd", Amount: 0}) // a tag
		}
		if rng.IntN(5) == 0 {
			caps = append(caps, sim.Quantity{Resource: "flies", Amount: -sim.Units(int64(1 + rng.IntN(5)))})
		}
		if i == ward {
			caps = append(caps, sim.Quantity{Resource: "spiders", Amount: sim.Ward})
		}
		if defaults {
			caps = append(caps, sim.Quantity{Resource: "lic", Amount: sim.Units(int64(rng.IntN(4)))})
		}
		attrs := map[string]string{
			"arch":      []string{"x86_64", "aarch64"}[rng.IntN(2)],
			"groups":    []string{"default", "gpu", "default,gpu"}[rng.IntN(3)],
			"gpu_model": "V100M16",
		}
		if rng.IntN(8) != 0 {
			attrs["zone"] = []string{"a", "b", "c"}[rng.IntN(3)]
		}
		spec := sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: caps, Attributes: attrs}
		if racks {
			spec.Parent = fmt.Sprintf("r%d", rng.IntN(2))
		}
		if rng.IntN(4) == 0 {
			spec.Taints = []sim.Taint{{Key: "dedicated", Value: []string{"db", "web"}[rng.IntN(2)],
				Effect: []string{"NoSchedule", "PreferNoSchedule"}[rng.IntN(2)]}}
		}
		nodes = append(nodes, spec)
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		return nil, err
	}
	if defaults {
		c.Defaults = []sim.Quantity{{Resource: "lic", Amount: sim.Units(1)}}
	}
	return c, nil
}

// randomJob asks for resources the cluster has, with random traits.
func randomJob(rng *rand.Rand, c *sim.Cluster, id int) *sim.Job {
	has := func(r string) bool { _, ok := c.ResourceIndex(r); return ok }
	j := &sim.Job{ID: fmt.Sprintf("j%d", id), Tasks: 1 + rng.IntN(3),
		Runtime: sim.Time(1+rng.IntN(50)) * sim.Second}
	j.Walltime = j.Runtime
	add := func(r string, a sim.Amount) { j.Request = append(j.Request, sim.Quantity{Resource: r, Amount: a}) }
	if rng.IntN(10) != 0 {
		add("cpu", sim.Amount(500*(1+rng.IntN(6))))
	}
	if rng.IntN(2) == 0 {
		add("mem", sim.Units(int64(1+rng.IntN(4))))
	}
	if has("gpu") && rng.IntN(3) == 0 {
		add("gpu", []sim.Amount{500, 1000, 2000}[rng.IntN(3)])
	}
	if has("ssd") && rng.IntN(5) == 0 {
		add("ssd", 0)
	}
	if has("flies") && rng.IntN(6) == 0 {
		add("flies", -sim.Units(int64(1+rng.IntN(6))))
	}
	if has("uplink") && rng.IntN(3) == 0 {
		add("uplink", sim.Units(1))
	}
	if has("lic") && rng.IntN(4) == 0 {
		add("lic", 0) // overrides the default 1
	}
	if rng.IntN(10) < 3 {
		return j
	}
	tr := &sim.Traits{}
	if rng.IntN(5) == 0 {
		tr.Immunities = []string{"spiders"}
	}
	if rng.IntN(5) == 0 {
		tr.AversionGroups = []string{"g"}
	}
	if rng.IntN(5) == 0 {
		tr.Selector = []sim.Label{{Key: "zone", Value: []string{"a", "b", "c"}[rng.IntN(3)]}}
	}
	if rng.IntN(3) == 0 {
		tr.Tolerations = []sim.Toleration{{Key: "dedicated", Value: []string{"", "db"}[rng.IntN(2)],
			Effect: []string{"", "NoSchedule", "PreferNoSchedule"}[rng.IntN(3)]}}
	}
	for k := rng.IntN(3); k > 0; k-- {
		con := sim.Constraint{Soft: rng.IntN(3) == 0}
		switch rng.IntN(4) {
		case 0:
			con.Kind = ExclusiveHost
		case 1:
			con.Kind, con.Attribute, con.Value = HostAttribute, "zone", []string{"a", "b"}[rng.IntN(2)]
		case 2:
			con.Kind, con.Attribute = UniqueAttribute, []string{"", "zone"}[rng.IntN(2)]
		case 3:
			con.Kind, con.Attribute, con.Groups = BalancedAttribute, "zone", rng.IntN(4)
		}
		tr.Constraints = append(tr.Constraints, con)
	}
	if rng.IntN(7) == 0 {
		tr.Architecture = []string{"x86_64", "aarch64", "riscv64"}[rng.IntN(3)]
	}
	if rng.IntN(7) == 0 {
		tr.MemberGroup = []string{"default", "gpu"}[rng.IntN(2)]
	}
	j.Traits = tr
	return j
}

// randomSpec gives strategy name the arguments it needs, and sometimes
// extra scorers and a candidate limit.
func randomSpec(rng *rand.Rand, name string) Spec {
	s := Spec{Strategy: name, Seed: rng.Uint64()}
	switch name {
	case "binpack":
		s.Args = &ResourceArgs{Resources: Weights{{Name: "cpu", Weight: 1}, {Name: "mem", Weight: 0.5}}}
	case "fenzo":
		s.Args = &CalculatorArgs{Calculator: []string{"cpu", "mem", "cpu+mem", "none"}[rng.IntN(4)]}
	}
	if rng.IntN(3) == 0 {
		s.Scorers = append(s.Scorers, Scoring{Name: "spread", Weight: 1, Args: &AttributeArgs{Attribute: "zone"}},
			Scoring{Name: "taint-preference", Weight: 2})
	}
	if rng.IntN(3) == 0 {
		s.Limit = []Limit{Auto, 2, 3}[rng.IntN(3)]
	}
	return s
}

// oracle is the test's own model of the cluster: free amounts booked by
// the chain rule, and per node the live tasks and exclusive holders.
type oracle struct {
	c         *sim.Cluster
	R         int
	free      []sim.Amount
	tasks     []int
	exclusive []int
}

func newOracle(c *sim.Cluster) *oracle {
	o := &oracle{c: c, R: c.NumResources(), tasks: make([]int, len(c.Nodes)), exclusive: make([]int, len(c.Nodes))}
	o.free = make([]sim.Amount, len(c.Nodes)*o.R)
	for n := range c.Nodes {
		for r := 0; r < o.R; r++ {
			if a, ok := c.Capacity(n, r); ok {
				o.free[n*o.R+r] = a
			}
		}
	}
	return o
}

func (o *oracle) chain(n int) []int {
	var ms []int
	for m := n; m >= 0; m = o.c.Parent(m) {
		ms = append(ms, m)
	}
	return ms
}

// fits is sim/fit.go's rule, restated.
func (o *oracle) fits(n int, need []sim.Need, immune []int32) bool {
	if o.c.IsParent(n) {
		return false
	}
	listed := map[int32]bool{}
	for _, q := range need {
		listed[q.Res] = true
		if slices.Contains(immune, q.Res) {
			continue
		}
		defined := false
		for _, m := range o.chain(n) {
			if _, ok := o.c.Capacity(m, int(q.Res)); ok {
				defined = true
				if o.free[m*o.R+int(q.Res)]-q.Amt < 0 {
					return false
				}
			}
		}
		if !defined {
			return false
		}
	}
	for _, m := range o.chain(n) {
		for r := 0; r < o.R; r++ {
			if _, ok := o.c.Capacity(m, r); ok && o.free[m*o.R+r] < 0 && !listed[int32(r)] && !slices.Contains(immune, int32(r)) {
				return false
			}
		}
	}
	return true
}

// book applies (sign +1) or gives back (−1) one task on node n.
func (o *oracle) book(n int, need []sim.Need, exclusive bool, sign int) {
	for _, q := range need {
		for _, m := range o.chain(n) {
			if _, ok := o.c.Capacity(m, int(q.Res)); ok {
				o.free[m*o.R+int(q.Res)] -= sim.Amount(sign) * q.Amt
			}
		}
	}
	o.tasks[n] += sign
	if exclusive {
		o.exclusive[n] += sign
	}
}

// hardOK says whether a task of job j may land on node n, its job's
// earlier tasks being on co: every hard constraint it carries, and
// exclusive hosts either way. It returns what is violated, or "".
func (o *oracle) hardOK(j *sim.Job, n int, co []int32) string {
	node := o.c.Nodes[n]
	if o.exclusive[n] > 0 {
		return "node holds an exclusive task"
	}
	tr := j.Traits
	if tr == nil {
		tr = &sim.Traits{} // taints still apply
	}
	for _, lb := range tr.Selector {
		if v, ok := node.Attributes[lb.Key]; !ok || v != lb.Value {
			return "selector " + lb.Key + "=" + lb.Value
		}
	}
	for _, x := range node.Taints {
		if x.Effect != "NoSchedule" {
			continue
		}
		ok := false
		for _, t := range tr.Tolerations {
			ok = ok || (t.Key == x.Key && (t.Value == "" || t.Value == x.Value) && (t.Effect == "" || t.Effect == x.Effect))
		}
		if !ok {
			return "untolerated taint " + x.Key + "=" + x.Value
		}
	}
	if tr.Architecture != "" && node.Attributes["arch"] != tr.Architecture {
		return "architecture"
	}
	if tr.MemberGroup != "" && !slices.Contains(strings.Split(node.Attributes["groups"], ","), tr.MemberGroup) {
		return "member group"
	}
	value := func(m int, key string) (string, bool) {
		v, ok := o.c.Nodes[m].Attributes[key]
		if !ok && key == HostName {
			return o.c.Nodes[m].Name, true
		}
		return v, ok
	}
	for _, con := range tr.Constraints {
		if con.Soft {
			continue
		}
		switch con.Kind {
		case ExclusiveHost:
			if o.tasks[n] > 0 {
				return "exclusive host on a busy node"
			}
		case HostAttribute:
			if v, ok := value(n, con.Attribute); !ok || v != con.Value {
				return "host attribute"
			}
		case UniqueAttribute:
			key := con.Attribute
			if key == "" {
				key = HostName
			}
			v, ok := value(n, key)
			if !ok {
				return "unique attribute missing"
			}
			for _, m := range co {
				if w, _ := value(int(m), key); w == v {
					return "unique attribute repeated"
				}
			}
		case BalancedAttribute:
			if msg := o.balanced(con, n, co, value); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// balanced is Fenzo's hard balanced-attribute rule: the node's group must
// be among the least loaded, or below the most loaded; groups expected
// but holding no co-task count as empty.
func (o *oracle) balanced(con sim.Constraint, n int, co []int32, value func(int, string) (string, bool)) string {
	mine, ok := value(n, con.Attribute)
	if !ok {
		return "balanced attribute missing"
	}
	counts := map[string]int{}
	present := map[string]bool{}
	for m := range o.c.Nodes {
		if v, ok := value(m, con.Attribute); ok {
			present[v] = true
		}
	}
	for _, m := range co {
		if v, ok := value(int(m), con.Attribute); ok {
			counts[v]++
		}
	}
	groups := con.Groups
	if groups <= 0 {
		groups = len(present)
	}
	lo, hi := -1, 0
	for _, k := range counts {
		if lo < 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
	}
	if len(counts) < groups || lo < 0 {
		lo = 0
	}
	if k := counts[mine]; k != lo && k >= hi {
		return fmt.Sprintf("balanced attribute: group %s holds %d (least %d, most %d)", mine, k, lo, hi)
	}
	return ""
}

func isHardExclusive(j *sim.Job) bool {
	if j.Traits == nil {
		return false
	}
	for _, c := range j.Traits.Constraints {
		if c.Kind == ExclusiveHost && !c.Soft {
			return true
		}
	}
	return false
}

// admit checks a job's placement task by task against the oracle and
// books it. It returns the first violation, or "".
func (o *oracle) admit(j *sim.Job, need []sim.Need, immune []int32, nodes []int32) string {
	excl := isHardExclusive(j)
	for i, n := range nodes {
		if !o.fits(int(n), need, immune) {
			return fmt.Sprintf("task %d does not fit on %s", i, o.c.Nodes[n].Name)
		}
		if msg := o.hardOK(j, int(n), nodes[:i]); msg != "" {
			return fmt.Sprintf("task %d on %s: %s", i, o.c.Nodes[n].Name, msg)
		}
		o.book(int(n), need, excl, 1)
	}
	return ""
}

// anywhere reports whether a one-task job fits some leaf now.
func (o *oracle) anywhere(j *sim.Job, need []sim.Need, immune []int32) bool {
	for n := range o.c.Nodes {
		if o.fits(n, need, immune) && o.hardOK(j, n, nil) == "" && !(isHardExclusive(j) && o.tasks[n] > 0) {
			return true
		}
	}
	return false
}

// fitting lists the leaves a one-task job fits now, for messages.
func (o *oracle) fitting(j *sim.Job, need []sim.Need, immune []int32) string {
	var names []string
	for n := range o.c.Nodes {
		if o.fits(n, need, immune) && o.hardOK(j, n, nil) == "" && !(isHardExclusive(j) && o.tasks[n] > 0) {
			free := []string{}
			for r := 0; r < o.R; r++ {
				if _, ok := o.c.Capacity(n, r); ok {
					free = append(free, fmt.Sprintf("%s=%s", o.c.Resources[r], o.free[n*o.R+r]))
				}
			}
			names = append(names, o.c.Nodes[n].Name+" ("+strings.Join(free, " ")+")")
		}
	}
	return strings.Join(names, ", ")
}

// consistent compares the ledger with the oracle and checks that no
// resource of non-negative capacity is over-committed.
func (o *oracle) consistent(l *Ledger) string {
	for n := range o.c.Nodes {
		for r := 0; r < o.R; r++ {
			capa, ok := o.c.Capacity(n, r)
			i := n*o.R + r
			switch {
			case !ok:
				if l.Free[i] != sim.Absent {
					return fmt.Sprintf("%s lacks %s but the ledger has %s free", o.c.Nodes[n].Name, o.c.Resources[r], l.Free[i])
				}
			case l.Free[i] != o.free[i]:
				return fmt.Sprintf("%s %s: ledger %s free, oracle %s", o.c.Nodes[n].Name, o.c.Resources[r], l.Free[i], o.free[i])
			case capa >= 0 && o.free[i] < 0:
				return fmt.Sprintf("%s over-committed on %s: %s free of %s", o.c.Nodes[n].Name, o.c.Resources[r], o.free[i], capa)
			}
		}
		if int(l.Tasks[n]) != o.tasks[n] {
			return fmt.Sprintf("%s: ledger counts %d tasks, oracle %d", o.c.Nodes[n].Name, l.Tasks[n], o.tasks[n])
		}
	}
	return ""
}

// live is a placed job, in placement order.
type live struct {
	task  *Task
	nodes []int32
}

func TestPropertyPlacementKeepsTheRules(t *testing.T) {
	placed := map[string]int{}
	for _, name := range Strategies() {
		for world := uint64(0); world < 12; world++ {
			rng := propRand(world<<8 | uint64(len(name)))
			_, gpuStrategy := gpuStrategyNames[name] // device-level fit: stricter than the scalar one
			c, err := randomCluster(rng, gpuStrategy)
			if err != nil {
				t.Fatal(err)
			}
			spec := randomSpec(rng, name)
			p, err := Build(c, spec)
			if err != nil {
				t.Fatalf("%s world %d: %v", name, world, err)
			}
			placed[name] += runWorld(t, fmt.Sprintf("%s world %d", name, world), rng, c, p, !gpuStrategy)
		}
	}
	for _, name := range Strategies() {
		t.Logf("%s: %d jobs placed", name, placed[name])
		if placed[name] == 0 {
			t.Errorf("%s placed no job in any world: the property says nothing about it", name)
		}
	}
}

// runWorld places and releases random jobs and checks the oracle after
// every step. complete asks for the completeness check on one-task jobs.
// It returns how many jobs were placed.
func runWorld(t *testing.T, where string, rng *rand.Rand, c *sim.Cluster, p *Pipeline, complete bool) int {
	t.Helper()
	l := NewLedger(c)
	o := newOracle(c)
	var running []live
	count := 0
	for step := 0; step < propSteps; step++ {
		if len(running) > 0 && rng.IntN(3) == 0 {
			i := rng.IntN(len(running))
			lv := running[i]
			l.Release(lv.task)
			for _, n := range lv.nodes {
				o.book(int(n), lv.task.Need, isHardExclusive(lv.task.Job), -1)
			}
			running = slices.Delete(running, i, i+1)
		} else {
			j := randomJob(rng, c, step)
			need, immune, err := c.Compile(j)
			if err != nil {
				continue
			}
			task := &Task{Key: int64(step), Job: j, Need: need, Immune: immune}
			couldPlace := j.Tasks == 1 && o.anywhere(j, need, immune)
			nodes, _ := p.PlaceJob(l, task, j.Tasks, nil, nil)
			if nodes == nil {
				if complete && couldPlace {
					p.Stats = &Stats{} // ask again, for the reason
					_, reason := p.PlaceJob(l, task, j.Tasks, nil, nil)
					t.Fatalf("%s step %d: job %s (%+v, traits %+v) fits on %s but was not placed: %s",
						where, step, j.ID, j.Request, j.Traits, o.fitting(j, need, immune), reason)
				}
			} else {
				nodes = slices.Clone(nodes)
				if msg := o.admit(j, need, immune, nodes); msg != "" {
					t.Fatalf("%s step %d: job %s (%+v, traits %+v) on %v: %s", where, step, j.ID, j.Request, j.Traits, nodes, msg)
				}
				running = append(running, live{task, nodes})
				count++
			}
		}
		if msg := o.consistent(l); msg != "" {
			t.Fatalf("%s step %d: %s", where, step, msg)
		}
	}
	return count
}

// engineScheduler starts queued jobs wherever the pipeline places them,
// in queue order, skipping those that do not fit now (no blocking, so the
// run keeps moving); its ledger follows the engine's starts and ends.
type engineScheduler struct {
	p       *Pipeline
	l       *Ledger
	running map[*sim.JobRun]*Task
}

func (s *engineScheduler) Schedule(c *sim.Context) error {
	for _, j := range c.Ended() {
		if t, ok := s.running[j]; ok {
			s.l.Release(t)
			delete(s.running, j)
		}
	}
	for _, j := range c.Queue() {
		if j.Status != sim.Queued {
			continue
		}
		t := &Task{Key: j.Seq, Job: j.Job, Need: j.Needs(), Immune: j.Immune(), At: c.Now()}
		nodes, _ := s.p.PlaceJob(s.l, t, j.Job.Tasks, nil, nil)
		if nodes == nil {
			continue
		}
		// The engine checks the fit again at Start and fails the run if
		// the ledger and the engine disagree.
		if err := c.Start(j, slices.Clone(nodes)); err != nil {
			return err
		}
		s.running[j] = t
	}
	return nil
}

// constraintObserver checks every started job against the oracle (fit
// and hard constraints, with what runs at that moment) and books it.
type constraintObserver struct {
	o        *oracle
	problems []string
	started  int
}

func (k *constraintObserver) Submitted(sim.Time, *sim.JobRun) {}
func (k *constraintObserver) Started(now sim.Time, j *sim.JobRun) {
	k.started++
	if msg := k.o.admit(j.Job, j.Needs(), j.Immune(), j.Nodes); msg != "" {
		k.problems = append(k.problems, fmt.Sprintf("t=%s job %s: %s", now, j.Job.ID, msg))
	}
}
func (k *constraintObserver) Ended(now sim.Time, j *sim.JobRun) {
	for _, n := range j.Nodes {
		k.o.book(int(n), j.Needs(), isHardExclusive(j.Job), -1)
	}
}
func (k *constraintObserver) Rejected(sim.Time, *sim.JobRun)  {}
func (k *constraintObserver) Stepped(sim.Time, *sim.Context)  {}
func (k *constraintObserver) Finished(sim.Time, *sim.Context) {}

func TestPropertyThroughTheEngine(t *testing.T) {
	for _, name := range []string{"first-fit", "round-robin", "binpack", "least-allocated", "fenzo", "fewest-instances", "random", "fgd"} {
		started := 0
		for world := uint64(0); world < 6; world++ {
			rng := propRand(1<<32 | world<<8 | uint64(len(name)))
			_, gpuStrategy := gpuStrategyNames[name]
			c, err := randomCluster(rng, gpuStrategy)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(c, randomSpec(rng, name))
			if err != nil {
				t.Fatalf("%s world %d: %v", name, world, err)
			}
			var jobs []*sim.Job
			at := sim.Time(0)
			for i := 0; i < 40; i++ {
				at += sim.Time(rng.IntN(6)) * sim.Second
				j := randomJob(rng, c, i)
				j.Submit = at
				jobs = append(jobs, j)
			}
			check := sim.NewChecker(c)
			obs := &constraintObserver{o: newOracle(c)}
			sched := &engineScheduler{p: p, l: NewLedger(c), running: map[*sim.JobRun]*Task{}}
			if err := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, sched, sim.Config{}, check, obs).Run(); err != nil {
				t.Fatalf("%s world %d: %v", name, world, err)
			}
			if err := check.Err(); err != nil {
				t.Errorf("%s world %d: %v", name, world, err)
			}
			for _, msg := range obs.problems {
				t.Errorf("%s world %d: %s", name, world, msg)
			}
			started += obs.started
		}
		if started == 0 {
			t.Errorf("%s started no job through the engine", name)
		}
		t.Logf("%s: %d jobs started through the engine", name, started)
	}
}
