package placement

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/policies/gpu"
	"github.com/schedsim/schedsim/sim"
)

// The GPU strategies (fgd, best-fit, gpu-packing, gpu-clustering,
// gpu-dot-product, gpu-random) run the policies of package gpu, the FGD
// paper's family, inside the pipeline. The ledger counts a node's GPUs as
// one scalar; these strategies need each GPU's free milli, so each keeps a
// device-level mirror of the ledger (a gpu.Cluster) and is two rules:
//
//   - the filter "gpu devices" keeps the nodes where the task fits GPU by
//     GPU (policy.Score's ok): k wholly free GPUs, or one GPU with the share
//     free, of an allowed model. It only ever narrows the fit filter's
//     candidates, so the device model is stricter than the engine's scalar
//     check, never looser;
//   - the scorer, named after the strategy, is the policy's score clamped
//     to [0, 1].
//
// The mirror is bound to a ledger the first time the filter sees it
// (Ledger.Attach), and kept in step by the ledger's bookings: Took places
// the task on the GPUs the policy chose for that node, remembered per
// (job key, task index), and Released gives back exactly those GPUs.
//
// A task maps to a gpu.Demand by resource name: cpu (the Amount in milli
// of the cluster's unit, milli-CPU when cpu is in cores), mem (MiB,
// rounded up) and gpu: less than one unit is a share of one GPU, a whole
// number of units is that many whole GPUs, anything else (1.5 GPUs) is
// rejected with its reason. Nodes are read by gpu.SpecsFromSim, the GPU
// model from the attribute gpu_model (openb.ModelAttribute). A job's
// allowed models come from the key gpu_model of its selector
// (Traits.Selector) or, as a '|'-separated list ("V100M16|V100M32"), of its
// labels (Traits.Labels): the selector filter every pipeline runs wants
// the attribute to equal the value, so a list only works as a label.
//
// Fragmentation (fgd) is measured against the workload's task types. When
// the caller knows the workload (a whole trace, as the paper does), it
// gives it with SetGPUWorkload before the first placement. Otherwise the
// table is learned from the jobs as they arrive, each counted once (by
// key) with its task count, and rebuilt whenever the tasks counted reach a
// power of two: a replay streams its trace, so the jobs seen so far are
// the best estimate of the distribution, and the doubling keeps the
// rebuilds (each remeasures every node) to a logarithmic number.

// gpuModelAttr is the node attribute holding the GPU model, as
// openb.NodeSpecs writes it.
const gpuModelAttr = "gpu_model"

// gpuStrategy builds the pipeline of GPU policy name.
func gpuStrategy(name string) func(*sim.Cluster, *Spec) (*Pipeline, error) {
	return func(c *sim.Cluster, s *Spec) (*Pipeline, error) {
		f, err := newGPUFamily(c, name, s.Seed)
		if err != nil {
			return nil, err
		}
		return &Pipeline{Filters: []Filter{&gpuFilter{f}}, Scorers: []Weighted{{&gpuScorer{f}, 1}}}, nil
	}
}

// gpuStrategyNames maps the strategies to package gpu's policy names.
var gpuStrategyNames = map[string]string{
	"fgd": "fgd", "best-fit": "best-fit", "gpu-packing": "gpu-packing", "gpu-clustering": "gpu-clustering",
	"gpu-dot-product": "dot-product", "gpu-random": "random",
}

// gpuFamily is one GPU strategy's state, shared by its filter and scorer.
type gpuFamily struct {
	name, policy string
	cluster      *sim.Cluster
	cpu, mem, g  int          // resource indices; −1 when the cluster lacks one
	base         *gpu.Cluster // the empty cluster; mirrors are clones
	rng          *rand.Rand   // gpu-random's stream
	pol          gpu.Policy   // built against table
	table        *gpu.TaskTable
	given        bool // table came from SetGPUWorkload: learn nothing
	// learning (fgd without a given workload)
	counts  map[gpu.Demand]int64
	counted int64 // tasks counted
	seen    seenKeys
	mirrors map[*Ledger]*gpuMirror
	order   []*gpuMirror // mirrors as bound
	reason  string       // why the last task was refused before any node
}

func newGPUFamily(c *sim.Cluster, strategy string, seed uint64) (*gpuFamily, error) {
	f := &gpuFamily{name: strategy, policy: gpuStrategyNames[strategy], cluster: c, mirrors: map[*Ledger]*gpuMirror{}, counts: map[gpu.Demand]int64{}}
	f.cpu, f.mem, f.g = resourceOr(c, "cpu"), resourceOr(c, "mem"), resourceOr(c, "gpu")
	if f.g < 0 {
		return nil, fmt.Errorf("no node has the resource gpu")
	}
	specs, err := gpu.SpecsFromSim(c.Nodes, gpuModelAttr)
	if err != nil {
		return nil, err
	}
	for i := range specs {
		if specs[i].GPUs > 0 && specs[i].Model == "" {
			specs[i].Model = "unspecified" // no gpu_model: only model-free tasks match
		}
	}
	if f.base, err = gpu.NewCluster(specs); err != nil {
		return nil, err
	}
	// Stream 3 as in gpu.Experiment, so a seed means the same everywhere.
	f.rng = rand.New(rand.NewPCG(seed, 3))
	if f.policy != "fgd" {
		f.pol, err = gpu.New(f.policy, gpu.Env{Rand: f.rng})
	}
	return f, err
}

func resourceOr(c *sim.Cluster, name string) int {
	if i, ok := c.ResourceIndex(name); ok {
		return i
	}
	return -1
}

// SetGPUWorkload gives a GPU strategy's pipeline the workload its
// fragmentation is measured against (fgd; for the others it only makes
// the mirror keep fragmentation, see GPUCluster): the task types of jobs,
// each counted Tasks times, the most popular covering
// gpu.DefaultPopularity of the tasks, as in the paper. Call it before the
// first placement. It fails for other pipelines and for jobs whose demand
// the strategy rejects.
func SetGPUWorkload(p *Pipeline, jobs []*sim.Job) error {
	f := familyOf(p)
	if f == nil {
		return fmt.Errorf("placement %s is not a GPU strategy", p.Name)
	}
	if len(f.mirrors) > 0 {
		return fmt.Errorf("placement %s: the workload must be given before the first placement", p.Name)
	}
	var ds []gpu.Demand
	for _, j := range jobs {
		need, immune, err := f.cluster.Compile(j)
		if err != nil {
			return fmt.Errorf("job %s: %w", j.ID, err)
		}
		d, err := f.demand(&Task{Job: j, Need: need, Immune: immune})
		if err != nil {
			return fmt.Errorf("job %s: %w", j.ID, err)
		}
		for k := 0; k < max(1, j.Tasks); k++ {
			ds = append(ds, d)
		}
	}
	tt, err := gpu.NewTaskTable(ds, gpu.DefaultPopularity)
	if err != nil {
		return err
	}
	f.given = true
	return f.setTable(tt)
}

// GPUClusters returns the device-level mirrors a GPU strategy's pipeline
// keeps, one per ledger it has placed on, in the order it first saw them
// (in a replay the first is the placer's ledger; nil when p is no GPU
// strategy): for checks (gpu.Cluster.Check) and fragmentation. They must
// not be changed.
func GPUClusters(p *Pipeline) []*gpu.Cluster {
	f := familyOf(p)
	if f == nil {
		return nil
	}
	out := make([]*gpu.Cluster, len(f.order))
	for i, m := range f.order {
		out[i] = m.c
	}
	return out
}

func familyOf(p *Pipeline) *gpuFamily {
	for _, fl := range p.Filters {
		if g, ok := fl.(*gpuFilter); ok {
			return g.f
		}
	}
	return nil
}

// setTable measures against tt from now on; mirrors catch up when used.
func (f *gpuFamily) setTable(tt *gpu.TaskTable) error {
	f.table = tt
	f.base.SetTaskTable(tt)
	if f.policy == "fgd" {
		var err error
		f.pol, err = gpu.New("fgd", gpu.Env{Types: tt})
		return err
	}
	return nil
}

// learn counts a task's job once, and rebuilds the table when the tasks
// counted reach a power of two (fgd without a given workload).
func (f *gpuFamily) learn(t *Task, d gpu.Demand) error {
	// Negative keys are what-if probes (the replay's placer checks a job
	// that does not fit on the empty cluster as −1 − Seq): not arrivals,
	// unless nothing arrived yet.
	if f.given || f.policy != "fgd" || (t.Key < 0 && f.table != nil) || !f.seen.add(t.Key) {
		return nil
	}
	tasks := int64(1)
	if t.Job != nil {
		tasks = int64(max(1, t.Job.Tasks))
	}
	d.Mem = 0
	if d.GPUs == 0 {
		d.Models = gpu.AnyModel
	}
	f.counts[d] += tasks
	before := f.counted
	f.counted += tasks
	if f.table != nil && highBit(before) == highBit(f.counted) {
		return nil
	}
	var ds []gpu.Demand
	for _, dd := range sortedDemands(f.counts) {
		for k := int64(0); k < f.counts[dd]; k++ {
			ds = append(ds, dd)
		}
	}
	tt, err := gpu.NewTaskTable(ds, gpu.DefaultPopularity)
	if err != nil {
		return err
	}
	return f.setTable(tt)
}

func highBit(x int64) int {
	b := 0
	for ; x > 0; x >>= 1 {
		b++
	}
	return b
}

// sortedDemands lists the demand types in a fixed order, so the table
// (whose ties NewTaskTable breaks by the demand's fields) never depends
// on map order.
func sortedDemands(m map[gpu.Demand]int64) []gpu.Demand {
	out := make([]gpu.Demand, 0, len(m))
	for d := range m {
		out = append(out, d)
	}
	less := func(a, b gpu.Demand) bool {
		switch {
		case a.CPU != b.CPU:
			return a.CPU < b.CPU
		case a.GPUs != b.GPUs:
			return a.GPUs < b.GPUs
		case a.GPUMilli != b.GPUMilli:
			return a.GPUMilli < b.GPUMilli
		}
		return a.Models < b.Models
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && less(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// seenKeys is a set of job keys: a bitset for the engine's dense arrival
// numbers, a map for anything else.
type seenKeys struct {
	bits  []uint64
	other map[int64]bool
}

const denseKeys = 1 << 26

func (s *seenKeys) add(k int64) bool {
	if k >= 0 && k < denseKeys {
		w := int(k >> 6)
		for len(s.bits) <= w {
			s.bits = append(s.bits, 0)
		}
		if s.bits[w]&(1<<(k&63)) != 0 {
			return false
		}
		s.bits[w] |= 1 << (k & 63)
		return true
	}
	if s.other == nil {
		s.other = map[int64]bool{}
	}
	if s.other[k] {
		return false
	}
	s.other[k] = true
	return true
}

// demand maps a task to a gpu.Demand (see the comment at the top).
func (f *gpuFamily) demand(t *Task) (gpu.Demand, error) {
	var cpu, mem, g sim.Amount
	for _, nd := range t.Need {
		switch int(nd.Res) {
		case f.cpu:
			cpu = nd.Amt
		case f.mem:
			mem = nd.Amt
		case f.g:
			g = nd.Amt
		}
	}
	if cpu < 0 || mem < 0 || g < 0 {
		return gpu.Demand{}, fmt.Errorf("negative cpu, mem or gpu")
	}
	var gpus int
	var milli int32
	switch {
	case g == 0:
	case g < sim.Milli:
		gpus, milli = 1, int32(g)
	case g%sim.Milli == 0 && g/sim.Milli <= gpu.MaxGPUs:
		gpus, milli = int(g/sim.Milli), gpu.MilliPerGPU
	default:
		return gpu.Demand{}, fmt.Errorf("gpu %s: a GPU task asks for a share of one GPU (< 1) or whole GPUs (1–%d)", g, gpu.MaxGPUs)
	}
	var models []string
	if gpus > 0 {
		models = taskModels(t)
	}
	return f.base.Demand(int64(cpu), int64((mem+sim.Milli-1)/sim.Milli), gpus, milli, models)
}

// taskModels reads the allowed GPU models: the selector's gpu_model and
// the labels' ('|'-separated), both holding when both are given.
func taskModels(t *Task) []string {
	tr := t.traits()
	var sel, lab []string
	for _, l := range tr.Selector {
		if l.Key == gpuModelAttr {
			sel = append(sel, strings.Split(l.Value, "|")...)
		}
	}
	for _, l := range tr.Labels {
		if l.Key == gpuModelAttr {
			lab = append(lab, strings.Split(l.Value, "|")...)
		}
	}
	switch {
	case sel == nil:
		return lab
	case lab == nil:
		return sel
	}
	var both []string
	for _, m := range sel {
		if slices.Contains(lab, m) {
			both = append(both, m)
		}
	}
	if both == nil {
		both = []string{"\x00none"} // no model satisfies both: none allowed
	}
	return both
}

// gpuMirror is the device-level state of one ledger.
type gpuMirror struct {
	f      *gpuFamily
	c      *gpu.Cluster
	broken string // why the mirror cannot follow its ledger; "" when fine
	// The filter's results for the task being placed, read by the scorer
	// and by Took: valid where stamp == pass.
	score []float64
	gpus  []gpu.GPUSet
	stamp []uint64
	pass  uint64
	last  *Task
	index int
	// placed holds each job's tasks in booking order: where, what, which
	// GPUs, so Released gives back exactly those.
	placed map[int64][]gpuBooking
}

type gpuBooking struct {
	index, node int
	d           gpu.Demand
	g           gpu.GPUSet
}

// mirror returns l's mirror, binding one on first sight.
func (f *gpuFamily) mirror(l *Ledger) *gpuMirror {
	if m := f.mirrors[l]; m != nil {
		return m
	}
	m := &gpuMirror{f: f, c: f.base.Clone(), placed: map[int64][]gpuBooking{}}
	n := len(m.c.Nodes)
	m.score, m.gpus, m.stamp = make([]float64, n), make([]gpu.GPUSet, n), make([]uint64, n)
	for _, k := range l.Tasks {
		if k != 0 {
			// A ledger with bookings made before we saw it (a Clone):
			// its devices' state is unknown.
			m.broken = "gpu devices (ledger booked before the GPU strategy saw it)"
		}
	}
	if len(m.c.Nodes) != len(l.Tasks) {
		m.broken = "gpu devices (ledger of another cluster)"
	}
	f.mirrors[l] = m
	f.order = append(f.order, m)
	l.Attach(m)
	return m
}

// sync brings the mirror's fragmentation table up to the family's.
func (m *gpuMirror) sync() {
	if m.c.TaskTable() != m.f.table {
		m.c.SetTaskTable(m.f.table)
	}
}

// begin starts a new pass of cached results unless Keep is called again
// for the same task (a limited search visits the nodes in blocks).
func (m *gpuMirror) begin(t *Task) {
	if t != m.last || t.Index != m.index {
		m.pass++
		m.last, m.index = t, t.Index
	}
}

func (m *gpuMirror) Took(t *Task, n int) {
	if m.broken != "" {
		return
	}
	d, err := m.f.demand(t)
	g := m.gpus[n]
	if err == nil && m.stamp[n] != m.pass {
		// Booked without the filter's verdict (not through Place): take
		// the policy's choice now.
		m.sync()
		var ok bool
		if _, g, ok = m.f.pol.Score(&m.c.Nodes[n], d); !ok {
			err = fmt.Errorf("does not fit its GPUs")
		}
	}
	if err == nil {
		err = m.c.Place(n, d, g)
	}
	if err != nil {
		m.broken = fmt.Sprintf("gpu devices (task %d of job %d booked on node %s: %v)", t.Index, t.Key, m.c.Nodes[n].Name, err)
		return
	}
	m.placed[t.Key] = append(m.placed[t.Key], gpuBooking{t.Index, n, d, g})
	m.pass++ // node n changed: earlier results are stale
}

func (m *gpuMirror) Released(t *Task, n int) {
	if m.broken != "" {
		return
	}
	list := m.placed[t.Key]
	for i, b := range list {
		if b.node != n {
			continue
		}
		if err := m.c.Release(n, b.d, b.g); err != nil {
			m.broken = fmt.Sprintf("gpu devices (release of job %d on node %s: %v)", t.Key, m.c.Nodes[n].Name, err)
			return
		}
		list = append(list[:i], list[i+1:]...)
		if len(list) == 0 {
			delete(m.placed, t.Key)
		} else {
			m.placed[t.Key] = list
		}
		m.pass++
		return
	}
	m.broken = fmt.Sprintf("gpu devices (job %d released from node %s where it has no task)", t.Key, m.c.Nodes[n].Name)
}

// gpuFilter keeps the nodes where the task fits GPU by GPU, and records
// the policy's score and GPUs for the scorer and the booking.
type gpuFilter struct{ f *gpuFamily }

// Name is "gpu devices", or, right after Keep refused the task before
// looking at any node, the reason: the pipeline reads the name after each
// Keep to explain rejections.
func (g *gpuFilter) Name() string {
	if g.f.reason != "" {
		return g.f.reason
	}
	return "gpu devices"
}

func (g *gpuFilter) Keep(l *Ledger, t *Task, cands []int32) []int32 {
	f := g.f
	m := f.mirror(l)
	f.reason = m.broken
	if m.broken != "" {
		return cands[:0]
	}
	d, err := f.demand(t)
	if err == nil {
		err = f.learn(t, d)
	}
	if err != nil {
		f.reason = "gpu demand: " + err.Error()
		return cands[:0]
	}
	m.sync()
	m.begin(t)
	return keepIf(cands, func(n int) bool {
		s, gs, ok := f.pol.Score(&m.c.Nodes[n], d)
		if ok {
			m.score[n], m.gpus[n], m.stamp[n] = clamp01(s), gs, m.pass
		}
		return ok
	})
}

// gpuScorer is the policy's score, as the filter found it.
type gpuScorer struct{ f *gpuFamily }

func (s *gpuScorer) Name() string { return s.f.name }
func (s *gpuScorer) Score(l *Ledger, t *Task, cands []int32, out []float64) {
	m := s.f.mirror(l)
	var d gpu.Demand
	var err error
	fresh := false
	for i, n := range cands {
		if m.stamp[n] == m.pass && m.broken == "" {
			out[i] = m.score[n]
			continue
		}
		// Not through the filter (a pipeline without it): score afresh.
		if !fresh {
			d, err = s.f.demand(t)
			fresh = true
		}
		out[i] = 0
		if err == nil && m.broken == "" && s.f.pol != nil {
			m.sync()
			if v, _, ok := s.f.pol.Score(&m.c.Nodes[n], d); ok {
				out[i] = clamp01(v)
			}
		}
	}
}
