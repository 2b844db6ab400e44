// Package tracetest holds what the trace readers' tests share: reading a
// reader to its end (Drain, All, Jobs, Count), under fuzzing (FuzzRead),
// asserting a parse error (ParseErr), golden files and the -update flag
// that rewrites them (Golden), and gzip copies of samples (WriteGzip).
// Only tests import it.
package tracetest
