// Package native reads and writes schedsim's own trace format, schema
// "schedsim-native v1", in two encodings: JSON Lines (.jsonl, .ndjson) and
// CSV (.csv), each optionally gzip-compressed (.jsonl.gz, .csv.gz). A Parquet
// encoding of the same schema will follow.
//
// One record is one job (a sim.Job). Readers stream: they hold one record at
// a time, never the whole file, so memory does not grow with the trace.
//
// # Schema "schedsim-native v1"
//
//	field        type     unit     required  default   meaning
//	id           string   -        yes       -         job id, non-empty; kept as written
//	submit_s     decimal  seconds  yes       -         arrival time, 0 ≤ submit_s ≤ 1e12
//	runtime_s    decimal  seconds  yes       -         actual run time, 0 ≤ runtime_s ≤ 1e12
//	walltime_s   decimal  seconds  no        unknown   requested time limit, ≥ 0; -1 or absent = unknown
//	tasks        integer  -        no        1         number of tasks, ≥ 1
//	request      map      units    no        {}        per-task requirement per resource (see below)
//	user         string   -        no        ""
//	group        string   -        no        ""        group or tenant
//	queue        string   -        no        ""
//	partition    string   -        no        ""
//	priority     integer  -        no        0         larger is more important
//	gang         boolean  -        no        true      all tasks start together
//
// Times are decimal seconds and are read exactly (sim.ParseSeconds): 88.51
// becomes 88 510 000 µs. Up to six decimals are exact; longer fractions are
// rounded to the microsecond. Exponents ("1e3") are accepted.
//
// Requirements are in the resource's own unit (1 = one cpu, one MiB of mem,
// one gpu; whatever the cluster file uses) and may be fractional; they are
// stored in thousandths (sim.ParseAmount: "0.25" cpu = 250), rounded to the
// nearest thousandth. A resource that is not listed is not requested (the
// task does not touch it); a resource listed with 0 is requested at zero
// (a tag: the task only fits nodes that have the resource). Negative amounts
// are allowed (they overcome a node's shortcoming, SPEC §4.2); amounts lie
// within ±1e12 units, where decimal text with up to three decimals converts
// exactly. Resource names are free-form and non-empty; the order in which a
// record lists them is kept.
//
// The reader does not check that ids are unique (that would need the whole
// trace in memory).
//
// # JSON Lines
//
// One JSON object per line, keys as in the table above. Numbers are JSON
// numbers (not strings), strings are JSON strings, gang is true or false, and
// request is an object from resource name to number:
//
//	# id, submit_s and runtime_s are required; the rest have defaults
//	{"id": "1", "submit_s": 0, "runtime_s": 3600, "walltime_s": 7200, "tasks": 2, "request": {"cpu": 4, "mem": 2048}, "user": "alice"}
//	{"id": "2", "submit_s": 88.51, "runtime_s": 12.5, "request": {"cpu": 0.5}, "gang": false}
//
// A line whose first non-blank character is '#' is a comment; blank lines are
// ignored. A null value means the field is absent. Line numbers in errors
// count every physical line, comments and blank lines included.
//
// # CSV
//
// RFC 4180 CSV with a header row, which is required. Columns are the fields of
// the table above, in any order, except request, which becomes one column
// per resource named req_<resource> (req_cpu, req_mem, req_gpu…). Only id,
// submit_s and runtime_s must be present. An empty cell means the field is
// absent (its default applies; an empty req_ cell means the resource is not
// requested). gang is true or false (also 1/0, t/f). Blank lines are skipped;
// CSV has no comment lines.
//
//	id,submit_s,runtime_s,walltime_s,tasks,req_cpu,req_mem,user,gang
//	1,0,3600,7200,2,4,2048,alice,true
//	2,88.51,12.5,,1,0.5,,,false
//
// # Errors: strict and lenient
//
// A bad value, a missing required field, a field given twice, a record that is
// not a JSON object or a CSV row with the wrong number of cells is a bad
// record. In strict mode (traces.Options.Strict) Next returns a
// *traces.ParseError naming the file, the line and the field; in lenient mode
// the record is skipped and counted in Skips, keyed by the reason. Reasons
// carry no values ("must be ≥ 0", "not an integer"), so that Skips.ByReason
// stays a short table however many records are bad; the ParseError (and
// Skips.First) names the file, line and field.
//
// Some errors stop the reader in both modes, because skipping would hide a
// mistake in the file rather than a bad record:
//   - an unknown field (JSON key or CSV column): it is a typo, and every
//     record would lose that field;
//   - a record whose submit_s is earlier than the previous record's: the
//     engine needs the trace in submit order, so a reordered trace must be
//     sorted, not thinned;
//   - a missing CSV header, a CSV header naming a column twice or missing a
//     required column;
//   - an I/O error, a broken gzip stream, or a line longer than 16 MiB.
//
// Once Next has returned an error other than a skipped record, it returns the
// same error again.
package native
