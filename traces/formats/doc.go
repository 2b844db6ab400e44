// Package formats is the registry of trace formats: for each one its name
// (the --trace-format value), a line of documentation, how it is recognised
// from a path or the first bytes of a file, how it is opened (with the
// cluster the trace itself describes, when it does), and whether a command
// that replays one trace many times may keep its jobs in memory.
//
// Adding a format is its reader (a sub-package of traces), its test, its
// fuzz target and one entry in registry.go.
package formats
