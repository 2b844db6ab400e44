// Package metrics turns the engine's events into tables and is the only
// package that writes Parquet, Arrow IPC or CSV.
//
// A Recorder is a sim.Observer. It writes one run directory:
//
//	jobs.<ext>        one row per submitted job (streamed)
//	timeseries.<ext>  one row per event time that changed something (streamed)
//	nodes.<ext>       one row per node, written at Close
//	summary.<ext>     exactly one row, written at Close
//	summary.csv       the same row as CSV, always, for tools without Arrow
//
// where ext is parquet (default), arrow (IPC file format) or csv.
//
// Recording runs on goroutines of its own, so that on a machine with a
// spare core it overlaps the engine (feed.go). The observer methods, on
// the engine's goroutine, only copy what recording reads of each event
// (times, status, reason, the node list; at a step the counts, draw,
// allocations and the free amounts of the nodes that changed) into
// batches of 2,048 events. The recorder goroutine applies the batches in
// event order: tallies, waits, tenants, node usage and energy,
// fragmentation, and the staging of table rows. Finished waits for it, so
// Close sees everything; a write error is kept for Close, and a panic is
// raised again on the engine's goroutine.
//
// Memory follows the jobs alive, not the trace: a job's row is taken from
// its copy when the job ends (or is rejected, or is still queued or
// running when the run finishes) and staged as a small Go struct; every
// 16k rows the batch goes to the file's encoder goroutine, which fills the
// columns of the record under way from it and, every 64k rows, cuts the
// record and streams it to an open file writer. Column building, Parquet
// encoding and compression (about as costly as the simulation) thus run
// on a third goroutine, in cut order. Each goroutine takes its input in
// order, so the bytes never depend on scheduling. Two batches per table
// take turns, which bounds memory to one record and two batches per
// table, some 20 MB, plus four event batches of under a MB. The one
// exception is a few float64s per started job (floatlog.go), kept so the
// median and p95 wait and the calibration's statistics are exact rather
// than sketched.
//
// Parquet files are written by the package's own writer (parquetwriter.go)
// when every column is float64, int64, string, bool or a UTC microsecond
// timestamp, as all the tables' are: it makes the same bytes as the Arrow
// library's pqarrow writer with the properties of newParquetWriter
// (Snappy, PLAIN data pages V1, statistics, a row group per 64k rows),
// reading the Arrow buffers directly and reusing its page buffers, at a
// fraction of the cost. Any other schema goes through pqarrow.
//
// Energy is integrated per piece: the draw is constant between steps, and
// the price and carbon series (Options.Price, Options.Carbon) split a
// piece where they step; nodes' power states (power.go) give the nodes
// table's time asleep and switches. Fragmentation (frag.go) keeps, per
// node, how many typical tasks cannot use its free amounts, re-measuring
// only the nodes an event touched; its memory is the distinct task shapes
// seen (at most 65,536) plus a few numbers per node and resource.
//
// The jobs table also says what each job asked for as the trace gives it
// (requested processors, the per-task request, partition, QOS, priority,
// the trace's runtime even for jobs that never ran) and, when the trace
// records it, when the job really started; the summary's calib_* columns
// compare the run's schedule with that recorded one (calib.go). With
// Options.Epoch, the jobs and timeseries tables carry UTC timestamps and
// the files record the epoch and time zone (calendar.go).
//
// With Options.Measured (a what-if's warm-up and cool-down), the per-job
// statistics of the summary skip the unmeasured jobs, and the jobs table's
// measured column and the summary's jobs_measured say which and how many
// (measured.go).
//
// The summary's columns are declared once, as the Col* constants of
// summarycolumns.go: every package that reads a summary column names it
// with them. Recorder.Summary is the row Close wrote, each cell as
// summary.csv holds it; ReadSummary and ReadRunSummary are the one reader
// of a summary written before (summary.csv, else summary.parquet, printed
// as the CSV prints it), a run's, a sweep's or tune's.
//
// ReadJobs reads a run's jobs table back in any format; ExportBatsim
// writes it as Batsim's out_jobs.csv (batsim.go).
//
// Every file is written to a hidden temp file in the run directory and
// renamed into place by Close, summary.csv last: a run that fails or is
// aborted leaves no file under a final name, and the presence of
// summary.csv means the directory is complete.
//
// Outputs are deterministic: rows come in event order, columns in cluster
// resource order, floats in CSV are printed with strconv 'g' -1 (shortest
// exact), and the Parquet writer embeds no time or host. Only the wall_s,
// events_per_s and jobs_per_s summary columns differ between two identical
// runs.
//
// Arrow stays inside this package (and report, which reads the files back);
// callers pass plain Go values: a *sim.Cluster, Options, FinalInfo.
package metrics
