// Package calibrate ranks candidate baselines (`schedsim calibrate`): the
// points of a search space of run spec keys (Space), each replayed on a
// trace that records its jobs' real starts, by how well its waits match
// the recorded ones,
//
//	objective = calib_wait_ks + |ln calib_mean_wait_ratio| + |ln calib_p95_wait_ratio|
//
// (0: the record; a candidate whose metrics are null ranks last).
//
// New reads the record first (Record: the recorded waits' resolution, the
// submit span, the most any user of the choosing part had running at
// once, which the axis value "inferred" of max_jobs_per_user and
// max_procs_per_user stands for) and expands the space. With a holdout
// share the submit span is cut in two parts: a candidate is chosen on the
// fit part and reported on the held-out one, which the choice never saw.
// The choice follows a rule stated before any held-out number (rule.go):
// the choosing part cut into blocks of equal submit span, the mean block
// objective with its standard error, the fewest knobs within one standard
// error of the best, and a candidate that left recorded jobs waiting for
// ever inadmissible. Run replays every part and block of every candidate,
// keeping in OUT/runs/ only each run's summary and the SHA-256 of the
// spec it replayed, so that a calibrate run again resumes from the runs
// whose spec is unchanged; then it writes calibration.csv (the chosen
// first), best.yaml (the chosen candidate's run spec for the reported
// part) and calibration.png.
//
// The availability axis infers when the recorded machine was not all
// there (package traces/availability) and replays with those node
// events; WriteAvailability writes an inference's files, which `schedsim
// availability` writes too (the figure's axis in dates of a zone when the
// trace's calendar is known). Flags and printing are cmd/schedsim's.
package calibrate
