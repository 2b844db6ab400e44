// Package swf reads the Standard Workload Format of the Parallel Workloads
// Archive (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html):
// `.swf` and `.swf.gz`, header comments starting with ';' (MaxNodes,
// MaxProcs, …) and one job per line with 18 whitespace-separated fields:
//
//	1 job number        7 used memory        13 group id
//	2 submit time (s)   8 requested procs    14 executable
//	3 wait time         9 requested time (s) 15 queue
//	4 run time (s)     10 requested memory   16 partition
//	5 allocated procs  11 status             17 preceding job
//	6 average cpu time 12 user id            18 think time
//
// Mapping to sim.Job: processors are the allocated count (field 5), falling
// back to the requested one (field 8); the walltime is the requested time
// (field 9), falling back to the runtime when it is -1 or 0 (unknown); -1
// elsewhere means unknown and is ignored. A record with processors ≤ 0 or
// runtime < 0 is bad: lenient mode skips it and counts it, strict mode stops
// with file:line and the field. A runtime of 0 is legal: the job starts and
// ends at once. Job.RequestedProcs, kept for the outputs in both models,
// is the requested count (field 8), else the allocated one.
//
// The wait time (field 3) is the traced system's, so submit + wait is when
// the job really started there (Job.Recorded, Job.RecordedStart), which
// calibration compares a replay with; -1 is unknown.
//
// The header's UnixStartTime is the instant submit time 0 stands for
// (Header.Epoch), TimeZoneString the installation's time zone
// (Header.TimeZone, Header.Location; the older numeric TimeZone field, the
// standard-time offset, stands in when the name is missing).
//
// Fields 17 and 18 become a dependency (sim.Job.DependsOn): a job with a
// preceding job number > 0 enters the queue only once that job has ended,
// whatever the end (completed, killed or rejected: the format speaks of its
// termination), plus the think time (field 18; -1 or absent is 0). A
// preceding job that is not earlier in the log rejects the job with the
// reason (sim/deps.go). The numbers are matched against field 1 as
// written, so a log writing job numbers as "0012" matches none.
//
// Records are yielded in (submit time, file order). Logs are nearly always
// sorted already; for the few that are not (LLNL-Thunder), the reader makes
// a first pass that remembers only the out-of-order records and then merges
// them back while streaming, so memory follows the disorder, not the log:
// 16 bytes per out-of-order record and the parsed jobs that must wait for
// an earlier record further on. Options.MaxHeldBack (a million by default)
// bounds both counts; a log further out of order is an error that says to
// sort it.
//
// A header stating more than MaxModelNodes (10^6) nodes under the nodes
// model, or more than MaxProcs (2^40) processors or nodes under either,
// is an error naming its line.
//
// Two cluster models turn the header into nodes (Model): "pool" is one node
// holding MaxProcs processors, the count-based model of classic HPC
// simulators; "nodes" is MaxNodes nodes of ⌈MaxProcs/MaxNodes⌉ processors
// each, and a job takes ⌈procs/procs-per-node⌉ whole nodes.
package swf
