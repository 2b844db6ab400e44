// Package compare is the CI gate of schedsim (`schedsim compare BASE
// CANDIDATE`): it reads the summaries of two sets of runs (a sweep
// directory's summary.csv, a run directory, or a list of run directories)
// and their run.yaml provenance, says what differs between the two sides
// (refusing sides that replay different workloads unless asked), matches
// runs by key, and for each metric and group of runs that differ only by
// seed reports the base and candidate means, the relative change, a
// confidence interval of the difference, and a verdict against a
// per-metric tolerance. Its targets answer a planner's question per
// scenario ("p95_wait_s <= 3600": how many replicas meet it).
//
// The package reads CSV and YAML only and imports nothing from the
// engine: a gate compares numbers two commits wrote, whatever wrote them.
//
// Statistics (interval.go): the 95 % t-interval of mean(candidate) −
// mean(base) — of the paired differences when both sides ran the same
// seeds, else Welch's. Below MinReplicas values a side, or when the
// replicas do not vary, there is none and the tolerance alone decides;
// the output says so. sweep's table of results, report and the notebooks
// use the same definition (Summarize, schedsim_io.effect).
//
// A metric regresses when it is worse than the base by more than its
// tolerance and, with an interval, its interval lies wholly on the worse
// side of zero.
//
// Absent is not zero: a summary's empty cell (energy without a power
// model, calibration after a what-if, a statistic over no jobs) is never
// scored against a number. A default metric with values on one side only
// is listed as not comparable, with the reason its run.yaml gives.
//
// Calibration: the summary's calib_* columns say how far a replay is from
// the schedule its trace recorded. The start-time errors and the wait
// distribution's KS distance are better lower; the mean and p95 wait
// ratios (simulated / recorded) are better near 1, so for them "worse" is
// the change of the mean |value − 1|, with its own interval.
package compare
