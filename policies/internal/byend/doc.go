// Package byend keeps the running jobs in order of projected end (start
// plus estimate, then arrival), updated as jobs start and end. EASY reads
// the first few ends for its head's shadow time; conservative backfilling
// reads the first to notice a job running past its estimate.
package byend
