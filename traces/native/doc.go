// Package native reads and writes schedsim's own trace format, schema
// "schedsim-native v1", in three encodings: JSON Lines (.jsonl, .ndjson)
// and CSV (.csv), each optionally gzip-compressed (.jsonl.gz, .csv.gz), and
// Parquet (.parquet), the fastest to read (see "Parquet").
//
// One record is one job (a sim.Job). Readers stream: they hold one record at
// a time (Parquet: one chunk of rows), never the whole file, so memory does
// not grow with the trace. Writers stream too: JSON Lines one job at a
// time (AppendJSONL); CSV and Parquet need their columns before the first
// row (Columns, gathered in a first pass), then take one job at a time
// (CSVWriter, ParquetWriter).
//
// This package imports Arrow's Parquet library, the one exception to
// "Arrow stays inside metrics and report" (ARCHITECTURE): a Parquet trace
// must be decoded by something, the reader turns its columns into plain
// sim.Jobs at once, and no Arrow type appears in the package's API.
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
//	gang         boolean  -        no        true      all tasks start together; false: each task starts as it fits (see below)
//	depends_on   list     -        no        []        earlier jobs this one waits for (see "Dependencies")
//
// the optional fields of what the traced system recorded (see "Recorded
// fields"):
//
//	field             type     unit     default        meaning (sim.Job field)
//	qos               string   -        ""             the quality of service asked for (QOS)
//	requested_procs   integer  -        0 (none)       processors (cores) asked for, ≥ 0 (RequestedProcs)
//	recorded_start_s  decimal  seconds  not recorded   when the job really started there, within ±1e12 (Recorded, RecordedStart)
//
// and the optional placement traits (sim.Traits; see "Placement traits"):
//
//	field            type                 default  meaning (sim.Traits field)
//	immunities       list of strings      []       resources whose wards and shortcomings the tasks ignore (Immunities)
//	aversion_groups  list of strings      []       tasks sharing a group prefer different nodes (AversionGroups)
//	selector         object string→string {}       node attributes that must have these values (Selector)
//	tolerations      list of objects      []       {key, value, effect} tolerations of node taints (Tolerations)
//	constraints      list of objects      []       {kind, attribute, value, groups, soft} Fenzo constraints (Constraints)
//	architecture     string               ""       must equal the node's "arch" attribute (Architecture)
//	member_group     string               ""       must be one of the node's "groups" (MemberGroup)
//	project          string               ""       the job's LXD project (Project)
//	labels           object string→string {}       free-form job metadata (Labels)
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
// are allowed (they overcome a node's shortcoming); amounts lie
// within ±1e12 units, where decimal text with up to three decimals converts
// exactly. Resource names are free-form and non-empty; the order in which a
// record lists them is kept.
//
// The reader does not check that ids are unique (that would need the whole
// trace in memory).
//
// # Placement traits
//
// The trait fields are optional and belong to v1: a trace without them is
// read as before, and every job of it has Traits == nil (the reader
// allocates nothing for them). A job gets a non-nil Traits as soon as one
// trait field has a value; an empty list, object or string, and null, are
// the same as an absent field, so a job whose trait fields are all empty
// also has Traits == nil.
//
//   - immunities, aversion_groups: lists of non-empty strings, kept in order.
//   - selector, labels: objects of string → string, kept in the order written
//     (not sorted); keys are non-empty and given once; a null value is
//     absent, an empty string is a value.
//   - tolerations: list of objects {"key", "value", "effect"}, all strings;
//     key is required and non-empty; value and effect may be left out
//     (empty: any value, any effect); effect, when given, is NoSchedule or
//     PreferNoSchedule, the effects a cluster file's taints can have.
//   - constraints: list of objects {"kind", "attribute", "value", "groups",
//     "soft"}: kind (required) is exclusive-host, host-attribute,
//     unique-attribute or balanced-attribute; attribute and value are
//     strings, groups an integer (balanced-attribute's number of groups, 0 =
//     count the values in the cluster) and soft a boolean (default false:
//     a hard constraint). They are checked as the placement pipeline checks
//     them (sim.CheckConstraint): host-attribute and
//     balanced-attribute need an attribute, groups is ≥ 0.
//   - architecture, member_group, project: strings.
//   - labels: the label cotask_group (CotaskLabel) also names the job's
//     co-task group (sim.Job.CotaskGroup): jobs with the same value are one
//     another's co-tasks for the unique-attribute and balanced-attribute
//     constraints (replicas of a service submitted as separate jobs).
//
// gang: false, written out, makes a job's tasks independent
// (sim.Job.IndependentTasks): the engine starts each as it fits and the
// outputs have a row per task, ID#0, ID#1, … A job without the field, or
// with gang: true, starts its tasks together.
//
// The writers write gang as the reader needs it to rebuild the same job:
// a job of several tasks gets gang: false exactly when its tasks are
// independent. A job whose trace says it is not a gang but whose tasks
// start together all the same (sim.Job.Gang false, IndependentTasks
// false: Alibaba's instances) is written gang: true, since that is how it
// replays; the format has no way to say "not a gang, yet started
// together", and nothing but this reader looks at Gang. A job of one
// task keeps its gang as it is. The writers also refuse a job whose
// co-task group (sim.Job.CotaskGroup) is not the value of its
// cotask_group label, since the label is all the format keeps of it.
//
// Inside tolerations and constraints, a key that is not listed is an
// unknown field, and stops the reader as a top-level one does. Errors name
// the place in the value:
//
//	jobs.jsonl:12: field constraints[0].kind: unknown constraint "x" (known: exclusive-host, …)
//	jobs.jsonl:13: field selector.zone: must be a string
//	jobs.csv:7: field tolerations[1].key: missing
//
// For example:
//
//	{"id": "7", "submit_s": 5, "runtime_s": 60, "immunities": ["gpu"], "selector": {"zone": "b", "disk": "ssd"}, "tolerations": [{"key": "dedicated", "value": "ml", "effect": "NoSchedule"}], "constraints": [{"kind": "balanced-attribute", "attribute": "zone", "groups": 3, "soft": true}], "architecture": "aarch64"}
//
// A writer leaves out the trait fields a job does not have, so the output
// for a trace without traits is what it was before they existed.
//
// # Recorded fields
//
// qos, requested_procs and recorded_start_s keep what a trace recorded
// about the job on the system it was traced on, which the outputs and
// calibration use (an SWF trace's requested processors and wait, Slurm
// accounting's QOS and Start). recorded_start_s is on the trace's own
// clock, like submit_s, and may be negative; it is absent (left out,
// null, an empty cell) when the start was not recorded, while 0 is a
// start recorded at time 0. The writers leave these fields out of
// a job that has none (JSON Lines), and add their columns only when some
// job has them (CSV, Parquet), so a trace without them, and every trace
// written before they existed, reads with the defaults.
//
//	{"id": "1001", "submit_s": 0, "runtime_s": 3600, "tasks": 2, "qos": "normal", "requested_procs": 64, "recorded_start_s": 300}
//
// # Calendar
//
// A trace converted from one that says when its time 0 was (an SWF
// header's UnixStartTime and TimeZoneString, Slurm accounting's dates)
// keeps that instant, the epoch, and the site's IANA time zone, so that
// its replay writes the same calendar timestamps (Reader.Calendar). In
// Parquet they are metadata (see "Parquet"). In JSON Lines and CSV they
// are a first line of their own, which JSON Lines reads as a comment:
//
//	# schedsim.epoch=1996-09-23T12:00:31Z schedsim.time_zone=Europe/Stockholm
//
// The line is the file's first (after a byte-order mark), at most 4 KiB,
// and starts with '#' and a word schedsim.…; its words are key=value,
// with the keys schedsim.epoch (an RFC 3339 instant, written in UTC) and
// schedsim.time_zone (a zone name without blanks), each optional and
// given at most once. Any other first line is not a calendar line. A bad
// calendar line (an unknown key, an epoch that is not RFC 3339) stops the
// reader at its first record, in both modes. Line numbers in errors count
// the calendar line. AppendCalendarLine writes it.
//
// # Dependencies
//
// depends_on (sim.Job.DependsOn) lists earlier jobs of the trace that must
// end before the job enters the queue. An item is a job id (a string: after
// that job completes) or an object {"job", "condition", "think_s"}: job
// (required, non-empty) is the id, condition is "success" (the default:
// the job completed) or "any" (completed, killed or rejected), think_s the
// seconds between that end and the job's entry into the queue (≥ 0,
// default 0). An empty list or null is absent. The engine's semantics
// (release time, rejection of a dependency that can never be met) are in
// sim/deps.go.
//
//	{"id": "eval", "submit_s": 0, "runtime_s": 300, "depends_on": ["train-a", {"job": "train-b", "condition": "any", "think_s": 60}]}
//
// In CSV, depends_on is a column of compact JSON, like the structured
// traits; the CSV writer adds it only when some job has dependencies, and
// both writers write an item as a plain id when its condition and think
// time are the defaults.
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
// A line whose first non-blank character is '#' is a comment (the first
// may be the calendar line, see "Calendar"); blank lines are ignored. A null value means the field is absent. Line numbers in errors
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
// CSV has no comment lines, except that the calendar line (see
// "Calendar") may come before the header.
//
//	id,submit_s,runtime_s,walltime_s,tasks,req_cpu,req_mem,user,gang
//	1,0,3600,7200,2,4,2048,alice,true
//	2,88.51,12.5,,1,0.5,,,false
//
// The trait fields are columns of their own names. architecture,
// member_group and project hold plain text; the others hold their value as
// compact JSON in one cell, the same JSON as in JSON Lines (so, with CSV's
// quoting, a cell's double quotes are doubled). An empty cell is absent,
// as for every column; blanks around the JSON are ignored.
//
//	id,submit_s,runtime_s,selector,tolerations,architecture
//	7,5,60,"{""zone"":""b""}","[{""key"":""dedicated"",""effect"":""NoSchedule""}]",aarch64
//
// The CSV writer adds a trait or recorded column only when some job has
// that field, so a trace without traits has none. The recorded fields
// are cells of their own, as in the table above (an empty cell is
// absent).
//
// # Parquet
//
// One row per job, one column per field, typed; a file written by another
// tool reads as long as it has these columns and types (any nullability;
// list elements named element or item). Times are whole microseconds, the
// engine's unit, so they are exact without a decimal type:
//
//	column            Parquet type (Arrow)                         null means      text field
//	id                BYTE_ARRAY UTF8 (string)                     (an error)      id
//	submit_us         INT64 (int64), µs                            (an error)      submit_s
//	runtime_us        INT64 (int64), µs                            (an error)      runtime_s
//	walltime_us       INT64 (int64), µs                            unknown         walltime_s
//	tasks             INT64 (int64)                                1               tasks
//	req_<resource>    INT64 DECIMAL(18,3) (decimal128(18,3)),      not requested   request.<resource>
//	                  units; scales 0–3 and INT32/FIXED_LEN_BYTE_ARRAY decimals are read too
//	user, group,      BYTE_ARRAY UTF8 (string), dictionary-encoded ""              the same
//	queue, partition
//	priority          INT64 (int64)                                0               priority
//	gang              BOOLEAN (bool)                               true            gang
//	qos               BYTE_ARRAY UTF8 (string), dictionary-encoded ""              qos
//	requested_procs   INT64 (int64)                                0               requested_procs
//	recorded_start_us INT64 (int64), µs                            not recorded    recorded_start_s
//	immunities,       LIST<UTF8> (list<string>)                    absent          the same
//	aversion_groups
//	selector, labels  MAP<UTF8, UTF8> (map<string, string>),       absent          the same
//	                  entries in order; a null value is absent
//	tolerations       LIST<STRUCT<key, value, effect: UTF8>>       absent          tolerations
//	constraints       LIST<STRUCT<kind, attribute, value: UTF8,    absent          constraints
//	                  groups: INT64, soft: BOOLEAN>>
//	architecture,     BYTE_ARRAY UTF8 (string)                     absent          the same
//	member_group, project
//	depends_on        LIST<STRUCT<job, condition: UTF8,            absent          depends_on
//	                  think_us: INT64 µs>>
//
// Only id, submit_us and runtime_us must be present. Inside the structs a
// member may be left out or null: "" for strings, 0, false; condition is
// success or any (null: success). The writer puts the req_ columns after
// tasks, in the order the resources first appear (so, as in CSV, a job's
// requirements come back in column order), and adds a recorded, trait or
// depends_on column only when some job has that field; empty lists and
// maps are written null.
//
// The file's key-value metadata must hold schedsim.schema =
// "schedsim-native v1" (the schema and its version); a file without it,
// or with another version, is refused at open with the key and both
// versions named. It may also hold, written by a converter that read
// them from the original trace (Embedded):
//
//	key                        value
//	schedsim.cluster           the trace's cluster, as a cluster file (sim/clusterconfig)
//	schedsim.cluster_source    where that cluster came from ("SWF header, pool model: …")
//	schedsim.node_events       its node events, as the CSV --node-events reads
//	schedsim.source            the trace it was converted from: name, format, sha256
//	schedsim.epoch             the calendar instant of time 0, RFC 3339 (written in UTC)
//	schedsim.time_zone         the site's IANA time zone (see "Calendar")
//
// A metadata epoch that is not RFC 3339, or a time zone with blanks, is
// refused at open.
//
// The writer writes row groups of 64 Ki jobs, Snappy-compressed, and the
// same jobs give the same bytes. The reader decodes with the Parquet
// library's column readers (about twice as fast as going through Arrow
// records): the flat columns a chunk of at most 8192 rows at a time, the
// nested ones a row group at a time. Jobs with equal requirements share
// one Request slice. In errors the line is the row, counted from 1 across
// the whole file, and the field is the column (with the place inside a
// structured value):
//
//	trace.parquet:70001: field submit_us: must be ≥ 0
//	trace.parquet:12: field constraints[0].kind: unknown constraint "x" (known: …)
//
// An unknown or mistyped column stops the reader at open; a corrupt file
// (the library fails or panics on it) stops it where it is found, in both
// modes.
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
// Skips.First) names the file, line and field. (One exception: an unknown
// constraint kind is named in the reason, with the known ones, as
// sim.CheckConstraint words it.)
//
// Some errors stop the reader in both modes, because skipping would hide a
// mistake in the file rather than a bad record:
//   - an unknown field (JSON key, CSV column, or key inside a toleration or
//     a constraint): it is a typo, and every record would lose that field;
//   - a record whose submit_s is earlier than the previous record's: the
//     engine needs the trace in submit order, so a reordered trace must be
//     sorted, not thinned;
//   - a missing CSV header, a CSV header naming a column twice or missing a
//     required column;
//   - a bad calendar line (see "Calendar");
//   - an I/O error, a broken gzip stream, or a line longer than 16 MiB.
//
// Once Next has returned an error other than a skipped record, it returns the
// same error again.
package native
