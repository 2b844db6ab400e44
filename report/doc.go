// Package report turns run directories written by `schedsim replay` into
// comparative figures and one self-contained HTML page (SPEC §7 `report`).
//
// It reads each run's tables back (Parquet through pqarrow, Arrow IPC, or
// CSV, whichever the run was written in), draws the figures with
// gonum/plot as PNG and SVG, and writes index.html with every PNG embedded
// as a data URI and the summary table of every run, so the page works from
// a file:// URL with no network.
//
// Everything is deterministic: the same run directories give the same
// bytes, so reports can be diffed and cached. Run i always gets colour i of
// one palette, in every figure. Large runs are downsampled (time series by
// bucket, CDFs by sampled quantiles, box-plot outliers by subsampling) so
// SVGs stay small whatever the trace size.
//
// Arrow stays inside metrics and report: callers see plain float64 columns.
package report
