// Package fgd is the experiment of Weng et al., "Beware of Fragmentation"
// (USENIX ATC'23), on the openb traces (`schedsim openb`): Load builds the
// GPU cluster of a node list and the task table of a pod list (package
// policies/gpu runs the policies over it, package traces/openb reads the
// lists), Summarize gives each policy's allocation ratio at 100 % and at
// the end of the arrivals over the seeds, and WriteFiles writes
// openb_alloc.csv and openb_summary.csv. The command parses the flags and
// prints the table.
package fgd
