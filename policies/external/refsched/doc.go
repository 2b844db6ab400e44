// Package refsched is a Batsim scheduler written for schedsim's tests: FCFS
// and EASY backfilling over Batsim's protocol, on a ZeroMQ REP socket, as
// any external scheduler would run. It decides exactly as schedsim's own
// fcfs queue with backfill none or easy does (first fit on the
// lowest-numbered free resources; EASY reserves the head's lowest-numbered
// resources free at its shadow time, or counts processors in the pool
// model), so that a replay it drives must start every job when schedsim's
// own policy does. It reads only what the protocol sends.
package refsched
