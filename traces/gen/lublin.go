package gen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"

	"github.com/schedsim/schedsim/sim"
)

// LublinType is the Lublin–Feitelson model of one job type (batch or
// interactive): U. Lublin and D. G. Feitelson, "The workload on parallel
// supercomputers: modeling the characteristics of rigid jobs", Journal of
// Parallel and Distributed Computing 63(11):1105–1122, 2003. The values
// are those the authors published with the model (LublinPublished), the
// parameters of its reference generator m_lublin99.c in the Parallel
// Workloads Archive.
type LublinType struct {
	Name string // "batch" or "interactive": the jobs' queue
	// Size (nodes). A job is serial with probability SerialProb; otherwise
	// log2 of its size is drawn from a two-stage uniform: U(ULow, UMed)
	// with probability UProb, else U(UMed, UHi). With probability Pow2Prob
	// (of all jobs) that exponent is rounded to an integer, so the size is
	// a power of two; the size is round(2^exponent). (On a machine whose
	// size is not a power of two, an exponent rounded above UHi is rounded
	// down instead; the published UHi are never exceeded.)
	SerialProb, Pow2Prob   float64
	ULow, UMed, UHi, UProb float64
	// Runtime. ln(runtime in s) is hyper-gamma: Gamma(A1, B1) (shape,
	// scale) with probability p, else Gamma(A2, B2), where p = PA·size + PB
	// clamped to [0, 1]: bigger jobs draw from the second, longer gamma
	// more often. Draws above ln(runtime) = 12 (about 45 h) are redrawn.
	A1, B1, A2, B2, PA, PB float64
	// Arrivals. ln(inter-arrival in s) at the rush hour is
	// Gamma(AArr·ARAR, BArr); draws above 13 (about 5 days) are redrawn.
	// The daily cycle: the day is 48 half-hour buckets, and bucket i's
	// share of arrivals is the mass of Gamma(ANum, BNum) (shape, scale, in
	// buckets) on [i − ½, i + ½], the day counted from bucket 11 (5:00);
	// time passes through a bucket at the speed of its share relative to
	// the mean, so busy buckets receive more jobs.
	AArr, BArr, ANum, BNum, ARAR float64
}

// Lublin–Feitelson model constants (m_lublin99.c).
const (
	lublinMaxLogRuntime = 12 // TOO_MUCH_TIME: ln(runtime) ≤ 12, e¹² s ≈ 45 h
	lublinMaxLogArrival = 13 // TOO_MUCH_ARRIVE_TIME: ln(inter-arrival) ≤ 13, ≈ 5 days
	lublinBuckets       = 48 // half hours in a day
	lublinBucketSeconds = 86400 / lublinBuckets
	lublinDayStart      = 11 // CYCLIC_DAY_START: the fitted day begins at bucket 11
	// lublinPublishedNodes is the machine the published sizes are for:
	// 2^UHi of the batch type, 2⁷ = 128 nodes.
	lublinPublishedNodes = 128
)

// LublinParams are the model's two job types.
type LublinParams struct {
	Batch, Interactive LublinType
}

// LublinPublished returns the published parameters (Lublin & Feitelson
// 2003; m_lublin99.c with INCLUDE_JOBS_TYPE = 1), for a machine of 128
// nodes.
func LublinPublished() LublinParams {
	return LublinParams{
		Batch: LublinType{
			Name:       "batch",
			SerialProb: 0.2927, // SERIAL_PROB_BATCH: share of serial jobs
			Pow2Prob:   0.6686, // POW2_PROB_BATCH: share of jobs sized a power of two
			ULow:       1.2,    // ULOW_BATCH: log2 of the smallest parallel size (2 nodes)
			UMed:       5,      // UMED_BATCH: where the two uniforms meet
			UHi:        7,      // UHI_BATCH: log2 of the largest size (128 nodes)
			UProb:      0.875,  // UPROB_BATCH: weight of the lower uniform
			A1:         6.57,   // A1_BATCH: shape of the first gamma of ln(runtime)
			B1:         0.823,  // B1_BATCH: its scale
			A2:         639.1,  // A2_BATCH: shape of the second gamma
			B2:         0.0156, // B2_BATCH: its scale
			PA:         -0.003, // PA_BATCH: p = PA·size + PB
			PB:         0.6986, // PB_BATCH
			AArr:       6.0415, // AARR_BATCH: shape of ln(inter-arrival) at the rush hour
			BArr:       0.8531, // BARR_BATCH: its scale
			ANum:       6.1271, // ANUM_BATCH: shape of the daily cycle (buckets)
			BNum:       5.2740, // BNUM_BATCH: its scale
			ARAR:       1.0519, // ARAR_BATCH: rush-hour to all-day ratio of AArr
		},
		Interactive: LublinType{
			Name:       "interactive",
			SerialProb: 0.1541, // SERIAL_PROB_ACTIVE
			Pow2Prob:   0.625,  // POW2_PROB_ACTIVE
			ULow:       1,      // ULOW_ACTIVE: smallest parallel size 2 nodes
			UMed:       3,      // UMED_ACTIVE
			UHi:        5.5,    // UHI_ACTIVE: largest size round(2^5.5) = 45 nodes
			UProb:      0.705,  // UPROB_ACTIVE
			A1:         3.8351, // A1_ACTIVE
			B1:         0.6605, // B1_ACTIVE
			A2:         7.073,  // A2_ACTIVE
			B2:         0.6856, // B2_ACTIVE
			PA:         -0.0118,
			PB:         0.9156,
			AArr:       6.5510, // AARR_ACTIVE
			BArr:       0.6621, // BARR_ACTIVE
			ANum:       8.9186, // ANUM_ACTIVE
			BNum:       3.6680, // BNUM_ACTIVE
			ARAR:       0.9797, // ARAR_ACTIVE
		},
	}
}

// ForNodes moves the size distribution to a machine of n nodes, as the
// model's authors advise: UHi becomes log2 n (less 1.5 for interactive
// jobs, as published) and UMed keeps its distance below UHi; ULow and the
// probabilities stay. It fails when the machine is too small for UMed ≥
// ULow (n < 32).
func (p LublinParams) ForNodes(n int) (LublinParams, error) {
	shift := math.Log2(float64(n)) - math.Log2(lublinPublishedNodes)
	for _, t := range []*LublinType{&p.Batch, &p.Interactive} {
		t.UHi += shift
		t.UMed += shift
		if t.UMed < t.ULow {
			return p, fmt.Errorf("nodes: the Lublin model needs at least 32 nodes, got %d", n)
		}
	}
	return p, nil
}

// Stream numbers of the Lublin model's components; the interactive type
// adds lublinTypeStreams.
const (
	streamLublinArrival = 1
	streamLublinSize    = 2
	streamLublinRuntime = 3
	lublinTypeStreams   = 16
)

// lublinStream is one job type's generator: its arrival clock and its
// random streams.
type lublinStream struct {
	LublinType
	weights              [lublinBuckets]float64 // relative arrival rate per bucket, mean 1
	arrival, size, runtm *rand.Rand
	next                 float64 // the type's next arrival, s since midnight of day 0
	bucket               int     // bucket of next
	offset               float64 // seconds of next into its bucket
}

// NewLublin makes a generator of the Lublin–Feitelson model with
// parameters p, moved to o.Nodes (default 128) by ForNodes. Each job is
// Tasks = size tasks of {cpu: 1}, on a cluster of o.Nodes nodes of one
// cpu, so a task is a node; its queue is its type; it has no walltime.
func NewLublin(p LublinParams, o Options) (*Generator, error) {
	if err := checkOptions(&o, lublinPublishedNodes, 32); err != nil {
		return nil, err
	}
	p, err := p.ForNodes(o.Nodes)
	if err != nil {
		return nil, err
	}
	var types [2]*lublinStream
	for k, t := range []LublinType{p.Batch, p.Interactive} {
		s := &lublinStream{LublinType: t}
		base := uint64(k * lublinTypeStreams)
		s.arrival = newStream(o.Seed, base+streamLublinArrival)
		s.size = newStream(o.Seed, base+streamLublinSize)
		s.runtm = newStream(o.Seed, base+streamLublinRuntime)
		s.weights = dailyCycle(t.ANum, t.BNum)
		s.advance() // the first arrival of each type, from midnight
		types[k] = s
	}
	request := []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}
	next := func() *sim.Job {
		// The job is of the type whose next arrival comes first; a tie
		// goes to interactive, as in the reference generator.
		s := types[1]
		if types[0].next < types[1].next {
			s = types[0]
		}
		submit := s.next
		s.advance()
		n := s.drawSize()
		return &sim.Job{
			Submit:   toTime(submit),
			Runtime:  toTime(s.drawRuntime(n)),
			Walltime: sim.NoWalltime,
			Tasks:    n,
			Request:  request,
			Gang:     true,
			Queue:    s.Name,
		}
	}
	return nodesGenerator("lublin", o, request, next), nil
}

// dailyCycle is the arrival weight of each half-hour bucket of the day:
// the mass of Gamma(shape, scale) on [i − ½, i + ½], where i counts
// buckets from the fitted day's start (bucket 11, 5:00, is i = 11; the
// buckets after midnight are i = 49…58), normalized to mean 1.
func dailyCycle(shape, scale float64) [lublinBuckets]float64 {
	var w [lublinBuckets]float64
	cdf := func(x float64) float64 { return mathext.GammaIncReg(shape, x/scale) }
	sum := 0.0
	for i := lublinDayStart; i < lublinDayStart+lublinBuckets; i++ {
		b := (i - 1) % lublinBuckets // position i covers the day's bucket i − 1
		w[b] = cdf(float64(i)+0.5) - cdf(float64(i)-0.5)
		sum += w[b]
	}
	for b := range w {
		w[b] /= sum / lublinBuckets
	}
	return w
}

// advance moves the type's next arrival on by one inter-arrival time: a
// draw X = e^g seconds of rush-hour time, g ~ Gamma(AArr·ARAR, BArr),
// spent through the buckets at the rate of their weights (a bucket of
// weight w uses up w seconds of X per second of the clock).
func (s *lublinStream) advance() {
	var g float64
	for {
		g = gamma(s.arrival, s.AArr*s.ARAR, s.BArr)
		if g <= lublinMaxLogArrival {
			break
		}
	}
	x := math.Exp(g)
	for {
		w := s.weights[s.bucket]
		left := lublinBucketSeconds - s.offset
		if w > 0 && x <= w*left {
			s.offset += x / w
			s.next += x / w
			return
		}
		x -= w * left
		s.next += left
		s.offset = 0
		s.bucket = (s.bucket + 1) % lublinBuckets
	}
}

// drawSize draws a job's number of nodes.
func (s *lublinStream) drawSize() int {
	u := s.size.Float64()
	if u <= s.SerialProb {
		return 1
	}
	lo, hi := s.UMed, s.UHi
	if s.size.Float64() <= s.UProb {
		lo, hi = s.ULow, s.UMed
	}
	e := lo + s.size.Float64()*(hi-lo)
	if u <= s.SerialProb+s.Pow2Prob {
		// Round to an integer exponent, but not past UHi (a machine of
		// n nodes that is not a power of two: round down instead).
		if e = math.Floor(e + 0.5); e > s.UHi {
			e--
		}
	}
	return int(math.Floor(math.Exp2(e) + 0.5))
}

// drawRuntime draws the runtime in seconds of a job of n nodes.
func (s *lublinStream) drawRuntime(n int) float64 {
	p := min(max(s.PA*float64(n)+s.PB, 0), 1)
	for {
		var g float64
		if s.runtm.Float64() <= p {
			g = gamma(s.runtm, s.A1, s.B1)
		} else {
			g = gamma(s.runtm, s.A2, s.B2)
		}
		if g <= lublinMaxLogRuntime {
			return math.Exp(g)
		}
	}
}
