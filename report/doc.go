// Package report turns run directories written by `schedsim replay` and
// sweep directories written by `schedsim sweep` into comparative figures
// and one self-contained HTML page (SPEC §7 `report`).
//
// It reads each run's tables back (Parquet through pqarrow, Arrow IPC, or
// CSV, whichever the run was written in) and draws, one line, box or bar
// per run: the wait CDF, bounded-slowdown boxes, per-tenant fairness bars,
// utilization, queue, power, fragmentation and nodes asleep over time and
// the cumulative energy. Of a sweep it reads only summary.csv and draws
// weight heatmaps and the Pareto front of wait, fairness and energy over
// its parameter combinations. Figures are PNG and SVG (gonum/plot);
// index.html embeds every PNG as a data URI with the summary tables, so
// the page works from a file:// URL with no network.
//
// Everything is deterministic: the same run directories give the same
// bytes, so reports can be diffed and cached. Run i always gets colour i of
// one palette, in every figure. Large runs are downsampled (time series by
// bucket, CDFs by sampled quantiles, box-plot outliers by subsampling) so
// SVGs stay small whatever the trace size.
//
// Arrow stays inside metrics and report: callers see plain float64 columns.
package report
