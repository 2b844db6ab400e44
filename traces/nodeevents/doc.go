// Package nodeevents reads a node-events file (`schedsim replay
// --node-events FILE`): scheduled failures, recoveries and drains.
//
// The file is CSV with a header naming its columns, in any order:
//
//		time_s,node,event,deadline_s
//		3600,cn07,fail,
//		5400,cn07,recover,
//		7200,cn12,drain,9000
//		9600,cn12,undrain,
//
//	  - time_s: when, in seconds from the trace's time zero (decimals to
//	    the microsecond), ≥ 0.
//	  - node: a node name of the cluster (checked when the run starts).
//	  - event: fail (the node goes down: its tasks are killed and their jobs
//	    queued again, restarting from their last checkpoint), recover,
//	    drain (no new task lands; running jobs finish), undrain.
//	  - deadline_s (optional column, drains only): when jobs still running
//	    on the drained node are moved (queued again, reason "evacuation").
//
// Lines starting with '#' and blank lines are skipped. Rows need not be in
// time order. Every problem is an error naming the file, line and column;
// the whole file is read before the run, so a bad file loses nothing.
package nodeevents
