// Package compare is the CI gate of schedsim (`schedsim compare BASE
// CANDIDATE`): it reads the summaries of two sets of runs (a sweep
// directory's summary.csv, a run directory, or a list of run directories),
// matches runs by key, and for each metric and group of runs that differ
// only by seed reports the base and candidate means, the relative change,
// a seeded bootstrap confidence interval of the difference, and a verdict
// against a per-metric tolerance.
//
// The package reads CSV only and imports nothing from the engine: a gate
// compares numbers two commits wrote, whatever wrote them.
//
// Statistics: the interval is the 95 % percentile bootstrap interval of
// mean(candidate) − mean(base) over B = 10,000 resamples. When both sides
// ran the same seeds the resampling is paired (one draw of seeds for both
// sides, so the noise a seed shares between commits cancels); otherwise
// each side is resampled on its own. Each (group, metric) draws from its
// own PCG stream derived from the seed and its name, so output does not
// depend on the order or number of groups and metrics.
//
// A metric regresses when it is worse than the base by more than its
// tolerance and, with two or more seeds on each side, its interval lies
// wholly on the worse side of zero.
//
// Calibration: the summary's calib_* columns say how far a replay is from
// the schedule its trace recorded. The start-time errors and the wait
// distribution's KS distance are better lower; the mean and p95 wait
// ratios (simulated / recorded) are better near 1, so for them "worse" is
// |candidate − 1| − |base − 1|, with its own bootstrap interval. These
// defaults are compared only when both sides have values: a what-if run
// whose transforms changed the jobs has none, and comparing it with its
// calibrated baseline says so in one line instead.
package compare
