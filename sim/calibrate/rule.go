package calibrate

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/metrics"
)

// The rule calibrate chooses its baseline by, kept apart from the
// replaying so that it can be read (and changed) in one place:
//
//  1. Admissible: a candidate that, in a part, started fewer of the
//     recorded jobs than another candidate of the space did left jobs the
//     history ran waiting for ever (a per-user processor cap below a
//     job's size does that); its objective there is null. The calib_*
//     statistics only see the jobs that started, so without this such a
//     candidate would look as good as the waits of the jobs it kept.
//  2. With B > 0 blocks (--blocks) the choosing part is cut into B consecutive
//     blocks of equal submit span, each replayed as a part of its own;
//     a candidate's choice objective is the mean m of its B block
//     objectives and its standard error s = sd/√B. Months differ: a
//     candidate that fits the part as a whole by undershooting some
//     months and overshooting others pays for both.
//  3. The chosen candidate is the one with the fewest knobs (axes not at
//     their first listed value) among those whose m is within the best
//     candidate's s of the best m; ties go to the lower m (the
//     one-standard-error rule: prefer the simpler model when the data
//     cannot tell them apart).
//
// Without blocks (--blocks 0) the choice objective is the objective on the whole
// choosing part and the lowest wins, as before blocks existed.

// blockNames are the block parts of the choosing part.
func (c *Calibration) blockNames() []string {
	var out []string
	for i := range c.blocks {
		out = append(out, fmt.Sprintf("%s_block%d", c.partNames()[0], i+1))
	}
	return out
}

// blockWindow is block i's [from, until) in trace seconds: equal shares
// of the choosing part's submit span. until 0 is the end of the trace.
func (c *Calibration) blockWindow(i int) (from, until float64) {
	first := c.Record.firstSubmit.Seconds()
	end := c.Record.lastSubmit.Seconds()
	if c.Holdout > 0 {
		end = c.Record.cut(c.Holdout)
	}
	at := func(k int) float64 { return math.Round(first + float64(k)/float64(c.blocks)*(end-first)) }
	from, until = at(i), at(i+1)
	if i == 0 {
		from = 0 // from the first job, whatever its submit
	}
	if i == c.blocks-1 {
		until = 0
		if c.Holdout > 0 {
			until = c.Record.cut(c.Holdout)
		}
	}
	return from, until
}

// Choice is a candidate's standing under the rule.
type Choice struct {
	Objective float64 // m: the choosing part's objective, or the mean over its blocks; NaN when null
	SE        float64 // s: the standard error of the block objectives; NaN without blocks
	Knobs     int     // axes not at their first listed value
	Left      int64   // recorded jobs of the choosing part it never started that another candidate did
}

// jobsCompared is a part's calib_jobs (-1 when missing).
func jobsCompared(vals []string) int64 {
	if vals == nil {
		return -1
	}
	n, err := strconv.ParseInt(vals[slices.Index(Columns, metrics.ColCalibJobs)], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// choose scores every candidate by the rule and returns them ranked: the
// chosen one first, then by choice objective (null last).
func (c *Calibration) choose(cands []*Candidate) []*Candidate {
	choosing := []string{c.partNames()[0]}
	if c.blocks > 0 {
		choosing = c.blockNames()
	}
	most := map[string]int64{}
	for _, cd := range cands {
		for _, p := range append(slices.Clone(choosing), c.partNames()[0]) {
			most[p] = max(most[p], jobsCompared(cd.Result[p]))
		}
	}
	for _, cd := range cands {
		ch := Choice{SE: math.NaN()}
		for i, a := range c.Space.axes {
			if cd.Values[i] != axisValueText(a.values[0]) {
				ch.Knobs++
			}
		}
		ch.Left = most[c.partNames()[0]] - jobsCompared(cd.Result[c.partNames()[0]])
		var objs []float64
		for _, p := range choosing {
			o := PartObjective(cd.Result[p])
			if jobsCompared(cd.Result[p]) < most[p] {
				o = math.NaN()
			}
			objs = append(objs, o)
		}
		ch.Objective = mean(objs)
		if len(objs) > 1 {
			ch.SE = stdErr(objs)
		}
		cd.Choice = ch
		cd.Score = ch.Objective
	}
	ranked := slices.Clone(cands)
	slices.SortStableFunc(ranked, func(a, b *Candidate) int { return compareScores(a.Score, b.Score) })
	if c.blocks == 0 || math.IsNaN(ranked[0].Score) {
		return ranked
	}
	best := ranked[0].Choice
	pick := 0
	for i, cd := range ranked {
		if cd.Score > best.Objective+best.SE {
			break
		}
		if cd.Choice.Knobs < ranked[pick].Choice.Knobs {
			pick = i
		}
	}
	chosen := ranked[pick]
	return append([]*Candidate{chosen}, slices.Delete(ranked, pick, pick+1)...)
}

// compareScores orders objectives ascending with null (NaN) last.
func compareScores(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mean is NaN when any value is.
func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// stdErr is the sample standard deviation over √n.
func stdErr(xs []float64) float64 {
	m := mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}

// RuleText says the rule in one line, for a printed table.
func (c *Calibration) RuleText() string {
	if c.blocks == 0 {
		return fmt.Sprintf("the lowest objective on the %s part", c.partNames()[0])
	}
	return fmt.Sprintf("the fewest knobs among the candidates whose mean objective over %d blocks of the %s part is within one standard error of the best",
		c.blocks, c.partNames()[0])
}

// csvNum writes a number for calibration.csv: empty when null.
func csvNum(f float64) string {
	if math.IsNaN(f) {
		return ""
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}

// choiceAxisLabel names the figure's x axis: the choice objective.
func (c *Calibration) choiceAxisLabel() string {
	if c.blocks == 0 {
		return "objective on the " + c.partNames()[0] + " part (the choice)"
	}
	return fmt.Sprintf("mean objective over %d blocks of the %s part (the choice)", c.blocks, c.partNames()[0])
}
