// Package report turns run directories written by `schedsim replay`,
// sweep and tune directories and `schedsim openb` outputs into
// comparative figures and one self-contained HTML page.
//
// It reads each run's tables back (Parquet through pqarrow, Arrow IPC, or
// CSV, whichever the run was written in) and draws, one line, box or bar
// per run: the wait CDF, bounded-slowdown boxes, per-tenant fairness bars
// (usage ÷ share only when the run configured shares), utilization,
// queue, power, fragmentation and nodes asleep over time, the cumulative
// energy and a Gantt chart of each run's jobs on their nodes. Time series
// are resampled to buckets of an hour, a day or a week chosen from the
// span: the bucket mean is the line, the range of the finer means within
// it (minutes, hours, days) a light band. Legends hold only what differs
// between runs, outside the data; what the runs share (trace, cluster,
// settings) is the title's second line. The page's summary table shows
// the metrics a planner reads first, durations as durations and the best
// run of each row marked, with every summary column's exact value in a
// details section.
//
// Of a sweep it reads only summary.csv and draws weight heatmaps, one
// panel per combination of its other varied parameters (never averaged
// across them), and the Pareto front of wait, fairness and energy; of a
// tuning run the evaluated weights as a scatter coloured by the
// objective; of an openb output the GPU allocation ratio and the
// fragmentation against the arrived GPU demand per policy, with the
// seeds' range.
//
// Figures are PNG and SVG (gonum/plot) at a Size in pixels and dpi;
// index.html embeds every PNG as a data URI, so the page works from a
// file:// URL with no network. Time axes count from each run's first
// event, or show dates when the jobs table gives calendar times
// (submit_time) and so the epoch.
//
// Everything is deterministic: the same directories give the same bytes,
// so reports can be diffed and cached. Run i always gets colour i of one
// palette, in every figure.
//
// Arrow stays inside metrics and report: callers see plain float64 columns.
package report
