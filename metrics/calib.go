package metrics

import (
	"math"

	"github.com/schedsim/schedsim/sim"
)

// calibration compares the run's schedule with the one a trace recorded
// (sim.Job.Recorded: SWF's wait field, sacct's Start), for the summary's
// calib_* columns. A planner replays the history under several queue
// orders and backfills and keeps the one closest to what happened before
// projecting. Like the waits of the summary, it keeps three float64 per
// compared job so that its quantiles are exact.
type calibration struct {
	// Per job that has a recorded start and started in the run, in start
	// order: |simulated start − recorded start| and both waits, from the
	// trace's submit (a job held back by dependencies waits from there in
	// the trace too).
	startErr, simWait, recWait floatLog

	// The recorded schedule's use of the main resource: Σ amount × tasks
	// × trace runtime over jobs with a recorded start, and the latest
	// recorded end.
	mainRes string // "" when the cluster has no resource
	work    float64
	end     sim.Time
	any     bool // some job has a recorded start

	// resolution > 0 rounds the waits compared; from and until (when
	// not 0) bound the trace submits of the jobs compared, windowed
	// counts the jobs submitted in that window.
	resolution, from, until sim.Time
	windowed                int64
}

// inWindow says whether a job submitted at submit is compared.
func (c *calibration) inWindow(submit sim.Time) bool {
	return (c.from == 0 || submit >= c.from) && (c.until == 0 || submit < c.until)
}

// windowSet says whether the comparison is limited to a window.
func (c *calibration) windowSet() bool { return c.from != 0 || c.until != 0 }

// round rounds a wait to the nearest multiple of the resolution (halves
// up), in seconds.
func (c *calibration) round(w sim.Time) float64 {
	if c.resolution <= 0 {
		return w.Seconds()
	}
	r := c.resolution
	q := (w + r/2) / r
	if w+r/2 < 0 {
		q = -((-(w + r/2) + r - 1) / r)
	}
	return (q * r).Seconds()
}

// submitted counts a recorded job's work, whatever becomes of it in the
// run: on the traced system it ran.
func (c *calibration) submitted(job *sim.Job) {
	if c.inWindow(job.Submit) {
		c.windowed++
	}
	if !job.Recorded {
		return
	}
	amt, _ := sim.Get(job.Request, c.mainRes)
	c.work += amt.Float() * float64(job.Tasks) * job.Runtime.Seconds()
	end := job.RecordedStart + job.Runtime
	if !c.any || end > c.end {
		c.end = end
	}
	c.any = true
}

// started compares a job's first start with its recorded one; submit is
// the trace's (sim.JobRun.TraceSubmit).
func (c *calibration) started(job *sim.Job, start, submit sim.Time) {
	if !job.Recorded || !c.inWindow(submit) {
		return
	}
	c.startErr.add(math.Abs((start - job.RecordedStart).Seconds()))
	c.simWait.add(c.round(start - submit))
	c.recWait.add(c.round(job.RecordedStart - submit))
}

// MinCalibrationShare is the least share of a run's jobs that must be
// compared with a recorded start for the calib_* statistics to stand:
// below it they describe a few jobs, not the schedule (a what-if that
// changed most jobs' timing leaves only the jobs it did not touch).
const MinCalibrationShare = 0.5

// cols are the calib_* summary columns. calib_jobs is always the number
// of jobs compared; every statistic is null when the run is not
// comparable with its history (off: its transforms moved submit times or
// runtimes), when no job could be compared (the trace records no start,
// or none started), or when fewer than MinCalibrationShare of the run's
// jobs were:
//
//	calib_jobs                  jobs with a recorded start that started in the run
//	calib_start_error_median_s  median of |simulated − recorded start| over them
//	calib_start_error_p90_s     its 90th percentile (both type 7, as numpy)
//	calib_wait_ks               Kolmogorov–Smirnov distance between their
//	                            simulated and recorded wait distributions
//	calib_mean_wait_ratio       mean simulated wait / mean recorded wait
//	calib_p95_wait_ratio        p95 simulated wait / p95 recorded wait
//	calib_recorded_utilization  the recorded schedule's utilization of the
//	                            main resource, beside the run's utilization
//
// With a resolution (Options.CalibResolution) the waits are rounded to
// it first; with a window (CalibFrom, CalibUntil) only the jobs submitted
// in it are compared, and the share counts the jobs submitted in it.
// Recorded utilization always covers the whole run.
//
// The wait ratios compare the statistics, not job by job: most recorded
// waits are 0, which would leave most per-job ratios undefined.
// Recorded utilization is the work of the jobs with a recorded start over
// capacity × the span from the first submit to the last submit or
// recorded end, whichever is later (the run's makespan, recorded).
func (c *calibration) cols(capacity float64, firstSubmit, lastSubmit sim.Time, jobs int64, off bool) []col {
	nan := math.NaN()
	errMed, errP90, ks, meanRatio, p95Ratio, util := nan, nan, nan, nan, nan, nan
	compared := c.startErr.len()
	if c.windowSet() {
		jobs = c.windowed
	}
	if off {
		compared = 0
	}
	enough := compared > 0 && float64(compared) >= MinCalibrationShare*float64(jobs)
	if enough {
		errs := c.startErr.sorted()
		errMed, errP90 = Quantile(errs, 0.5), Quantile(errs, 0.9)
		sw, rw := c.simWait.sorted(), c.recWait.sorted()
		ks = ksDistance(sw, rw)
		meanRatio = sum(sw) / sum(rw) // the n's cancel; 0/0 and x/0 give null
		p95Ratio = Quantile(sw, 0.95) / Quantile(rw, 0.95)
	}
	if c.any && enough {
		util = c.work / (capacity * (max(lastSubmit, c.end) - firstSubmit).Seconds())
	}
	return []col{
		intCol(ColCalibJobs, int64(compared)),
		floatCol(ColCalibStartErrorMedian, errMed),
		floatCol(ColCalibStartErrorP90, errP90),
		floatCol(ColCalibWaitKS, ks),
		floatCol(ColCalibMeanWaitRatio, meanRatio),
		floatCol(ColCalibP95WaitRatio, p95Ratio),
		floatCol(ColCalibRecordedUtilization, util),
	}
}

// ksDistance is the two-sample Kolmogorov–Smirnov statistic
// sup_x |A(x) − B(x)| of the empirical CDFs of a and b, both sorted and
// not empty. The CDFs only step at sample values, so it is enough to look
// right after each distinct value.
func ksDistance(a, b []float64) float64 {
	var d float64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] <= x {
			i++
		}
		for j < len(b) && b[j] <= x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
