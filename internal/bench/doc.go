// Package bench measures `schedsim bench`'s suites: each replay (or sweep,
// gen, openb) is a child process of the schedsim binary, so that its wall
// time includes reading the trace and writing the output files and its
// peak memory is its own max RSS. It runs the children and collects what
// they cost; the command prints the tables. It is internal: its numbers
// depend on the machine and are printed, never compared by a test.
package bench
