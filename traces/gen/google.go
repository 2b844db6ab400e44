package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// GoogleParams is a workload shaped like the Google cluster data 2011
// (C. Reiss, J. Wilkes, J. L. Hellerstein, "Google cluster-usage traces:
// format + schema", 2011; C. Reiss et al., "Heterogeneity and dynamicity of
// clouds at scale: Google trace analysis", SoCC 2012): many small
// single-task jobs with cpu and memory requests normalized to the largest
// machine (1.0), on a cluster of machines of the trace's platforms. It is
// not a fitted model: it has the trace's shapes (machine mix, request
// sizes, short batch tasks and long service tasks, priorities 0–11, a few
// heavy users) at a load that keeps a scheduler busy without an
// ever-growing queue, for scale tests.
type GoogleParams struct {
	// ArrivalsPerMachineHour sets the Poisson arrival rate: machines ×
	// this / 3600 tasks a second (Google's 12,583 machines saw about
	// 25 million tasks in 29 days, ≈ 2.9 an hour each).
	ArrivalsPerMachineHour float64
	// ServiceShare is the share of long-running (service) tasks; the
	// others are batch.
	ServiceShare float64
	// BatchMedian, BatchSigma: log-normal runtime of batch tasks (s).
	BatchMedian, BatchSigma float64
	// ServiceMedian, ServiceSigma: log-normal runtime of service tasks (s).
	ServiceMedian, ServiceSigma float64
	// Users is the number of users, drawn Zipf(s = 1.5): a few submit most.
	Users int
}

// GoogleDefaults returns the defaults: 2.9 arrivals per machine-hour; 15%
// service tasks of median 30,000 s, σ 1 (mean 30,000·e^0.5 = 49,462 s);
// batch tasks of median 400 s, σ 1.5 (mean 400·e^1.125 = 1,232 s): a mean
// runtime of 0.85·1,232 + 0.15·49,462 = 8,467 s; 1,000 users. On 12,500
// machines: 10.07 tasks/s, 10 million tasks in 11.5 days; about 85,000
// tasks running, which hold some 55% of the cpu (mean request 0.0402 of
// the 6,615 cpu; the mean draw of the request table below).
func GoogleDefaults() GoogleParams {
	return GoogleParams{
		ArrivalsPerMachineHour: 2.9,
		ServiceShare:           0.15,
		BatchMedian:            400, BatchSigma: 1.5,
		ServiceMedian: 30000, ServiceSigma: 1,
		Users: 1000,
	}
}

// googlePlatforms is the machine mix of the 2011 trace (Reiss et al. 2012,
// Table 1: machines by platform and normalized cpu and memory), 12,583
// machines in all.
var googlePlatforms = []struct {
	machines  int
	platform  string
	cpu, mem  float64
	groupName string
}{
	{6732, "B", 0.50, 0.50, "b-c050-m050-"},
	{3863, "B", 0.50, 0.25, "b-c050-m025-"},
	{1001, "B", 0.50, 0.75, "b-c050-m075-"},
	{795, "C", 1.00, 1.00, "c-c100-m100-"},
	{126, "A", 0.25, 0.25, "a-c025-m025-"},
	{52, "B", 0.50, 0.12, "b-c050-m012-"},
	{5, "B", 0.50, 0.03, "b-c050-m003-"},
	{5, "B", 0.50, 0.97, "b-c050-m097-"},
	{3, "C", 1.00, 0.50, "c-c100-m050-"},
	{1, "B", 0.50, 0.06, "b-c050-m006-"},
}

// googleCPURequests are the normalized cpu requests of a task and their
// weights: the trace's requests cluster on a few round fractions of a
// machine (1/160, 1/80, 1/40, 1/32, 1/16, 1/8, 1/4), rounded here to
// thousandths. Mean 0.0402. memBase is the rung of googleMemLadder about
// 0.7 times the request, where the task's memory is centred.
var googleCPURequests = []struct {
	cpu, weight float64
	memBase     int
}{
	{0.006, 10, 2}, {0.013, 25, 4}, {0.019, 5, 5}, {0.025, 20, 6},
	{0.031, 15, 7}, {0.063, 15, 9}, {0.125, 7, 11}, {0.25, 3, 13},
}

// googleMemLadder are the normalized memory requests, round fractions of
// the largest machine as in the trace, so that tasks come in a few dozen
// shapes (cpu, memory) rather than a continuum.
var googleMemLadder = []float64{
	0.001, 0.002, 0.004, 0.006, 0.009, 0.013, 0.019, 0.025, 0.031,
	0.047, 0.063, 0.094, 0.125, 0.188, 0.25, 0.375, 0.5,
}

// googleMemSteps are the rungs a task's memory lies from its cpu's base
// rung, with their weights: memory correlates with cpu, with a spread.
var googleMemSteps = []struct {
	step   int
	weight float64
}{{-2, 10}, {-1, 25}, {0, 35}, {1, 20}, {2, 10}}

// googleMaxRuntime caps a runtime at 30 days, longer than the trace.
const googleMaxRuntime = 30 * 86400

// Stream numbers of the Google-like model's components.
const (
	streamGoogleArrival  = 1
	streamGoogleCPU      = 2
	streamGoogleMemory   = 3
	streamGoogleRuntime  = 4
	streamGooglePriority = 5
	streamGoogleUser     = 6
)

// Validate reports the first problem of p.
func (p GoogleParams) Validate() error {
	switch {
	case !(p.ArrivalsPerMachineHour > 0) || math.IsInf(p.ArrivalsPerMachineHour, 0):
		return fmt.Errorf("arrivals per machine-hour: must be > 0, got %s", sim.FormatNumber(p.ArrivalsPerMachineHour))
	case !(p.ServiceShare >= 0 && p.ServiceShare <= 1):
		return fmt.Errorf("service share: must be in [0, 1], got %s", sim.FormatNumber(p.ServiceShare))
	case !(p.BatchMedian > 0) || !(p.ServiceMedian > 0):
		return fmt.Errorf("runtime medians: must be > 0 s")
	case !(p.BatchSigma >= 0 && p.BatchSigma <= 10) || !(p.ServiceSigma >= 0 && p.ServiceSigma <= 10):
		return fmt.Errorf("runtime sigmas: must be in [0, 10]")
	case p.Users < 1:
		return fmt.Errorf("users: must be ≥ 1, got %d", p.Users)
	}
	return nil
}

// NewGoogle makes a generator of the Google-like model on o.Nodes machines
// (default 12,500). Each job is one task requesting {cpu, mem} in
// normalized units: cpu from googleCPURequests, memory a rung of
// googleMemLadder near 0.7 × cpu (googleMemSteps), so at most 40 shapes.
// Batch tasks have priority 0–8
// (most 0–4), service tasks 9–11, as the trace's free, middle and
// production tiers. Jobs have no walltime and no queue.
func NewGoogle(p GoogleParams, o Options) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := checkOptions(&o, 12500, 1); err != nil {
		return nil, err
	}
	arrival := newStream(o.Seed, streamGoogleArrival)
	cpuR := newStream(o.Seed, streamGoogleCPU)
	memR := newStream(o.Seed, streamGoogleMemory)
	runtm := newStream(o.Seed, streamGoogleRuntime)
	prio := newStream(o.Seed, streamGooglePriority)
	users := rand.NewZipf(newStream(o.Seed, streamGoogleUser), 1.5, 1, uint64(p.Users-1))
	weights := make([]float64, len(googleCPURequests))
	for i, c := range googleCPURequests {
		weights[i] = c.weight
	}
	cpus := newCategorical(weights)
	stepWeights := make([]float64, len(googleMemSteps))
	for i, m := range googleMemSteps {
		stepWeights[i] = m.weight
	}
	memSteps := newCategorical(stepWeights)
	batchPrio := newCategorical([]float64{30, 10, 15, 10, 15, 5, 5, 5, 5}) // priorities 0–8
	userNames := make([]string, p.Users)
	for i := range userNames {
		userNames[i] = "u" + strconv.Itoa(i)
	}
	meanGap := 3600 / (p.ArrivalsPerMachineHour * float64(o.Nodes))
	batchMu, serviceMu := math.Log(p.BatchMedian), math.Log(p.ServiceMedian)
	t := 0.0
	next := func() *sim.Job {
		t += exponential(arrival, meanGap)
		req := googleCPURequests[cpus.draw(cpuR)]
		mem := googleMemLadder[req.memBase+googleMemSteps[memSteps.draw(memR)].step]
		var runtime float64
		var priority int
		if runtm.Float64() < p.ServiceShare {
			runtime = lognormal(runtm, serviceMu, p.ServiceSigma)
			priority = 9 + prio.IntN(3)
		} else {
			runtime = lognormal(runtm, batchMu, p.BatchSigma)
			priority = batchPrio.draw(prio)
		}
		return &sim.Job{
			Submit:   toTime(t),
			Runtime:  toTime(min(runtime, googleMaxRuntime)),
			Walltime: sim.NoWalltime,
			Tasks:    1,
			Request: []sim.Quantity{
				{Resource: "cpu", Amount: toAmount(req.cpu)},
				{Resource: "mem", Amount: toAmount(mem)},
			},
			Gang:     true,
			User:     userNames[users.Uint64()],
			Priority: priority,
		}
	}
	return &Generator{model: "google", total: o.Jobs, next: next, cluster: googleCluster(o.Nodes)}, nil
}

// googleCluster is n machines in the trace's platform mix: each platform
// gets its share of n, rounded by largest remainder (ties to the earlier,
// larger platform), so the counts add up to n.
func googleCluster(n int) Cluster {
	total := 0
	for _, p := range googlePlatforms {
		total += p.machines
	}
	counts := make([]int, len(googlePlatforms))
	rems := make([]int, len(googlePlatforms))
	given := 0
	for i, p := range googlePlatforms {
		counts[i] = p.machines * n / total
		rems[i] = p.machines * n % total
		given += counts[i]
	}
	for ; given < n; given++ {
		best := 0
		for i := range rems {
			if rems[i] > rems[best] {
				best = i
			}
		}
		counts[best]++
		rems[best] = -1
	}
	c := Cluster{Name: fmt.Sprintf("google2011-like-%d", n), IdleW: 100, MaxW: 250}
	for i, p := range googlePlatforms {
		c.Groups = append(c.Groups, NodeGroup{
			Prefix: p.groupName,
			Count:  counts[i],
			Resources: []sim.Quantity{
				{Resource: "cpu", Amount: toAmount(p.cpu)},
				{Resource: "mem", Amount: toAmount(p.mem)},
			},
			Attributes: [][2]string{{"platform", p.platform}},
		})
	}
	return c
}
