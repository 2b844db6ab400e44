// Command schedsim replays workload traces against scheduling policies under
// a virtual clock and writes the outcome as Parquet, Arrow IPC or CSV tables.
//
// Subcommands: replay (one trace, one cluster, one policy; the README's
// first command), policies (what can be chosen), bench (replay, placement
// and openb figures), openb (the FGD paper's GPU experiment).
//
// It only parses flags, loads configuration, wires packages together and
// reports; the simulation lives in sim, policies, traces and metrics.
package main
