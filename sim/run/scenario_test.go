package run_test

// The engine's scenario runner, in the spirit of CockroachDB's allocator
// simulator (asim) and its datadriven files: every
// testdata/engine-scenarios/*.yaml is one small cluster and one small
// workload, replayed end to end by run.Replay under several run specs, each
// followed by the outcome it must give. The files are documentation first:
// each opens with a comment saying what it shows, and each run's comment
// does the arithmetic that makes its outcome follow.
//
// A scenario file holds:
//
//	# what the file shows and why
//	cluster:          # a cluster file, as sim/clusterconfig reads it
//	  nodes: [...]
//	epoch: 1997-03-03T00:00:00Z   # optional: the trace's calendar time 0
//	jobs:             # native trace records (traces/native), one a job
//	  - {id: A, submit_s: 0, runtime_s: 10, tasks: 2, request: {cpu: 1}}
//	files:            # optional: more files beside them, name → content
//	  events.csv: |   # (node events, lattice profiles, price series…)
//	    time_s,node,event
//	    70,n1,fail
//	runs:
//	  - name: easy    # names the run in failures
//	    config:       # run spec keys, exactly as in a --config file
//	      backfill: easy
//	      node_events: events.csv   # relative paths name the files above
//	    expect: |
//	      A: start 0 end 10 on n1,n2
//
// The runner writes cluster.yaml, jobs.jsonl and the files into a temporary
// directory, and replays each run over run.Default() with the trace and
// cluster set, strict reading, the invariant checker on and CSV tables;
// its config: block is then decoded over that spec as a --config file is
// (unknown keys are errors with the file's line and a "did you mean"), and
// validated. A config may not set what the runner owns: trace,
// trace_format, cluster, platform, out, format, quiet, strict, check.
//
// The outcome is one line per job of the jobs table, in the order of the
// jobs: list (a job with gang: false has a line per task, ID#0, ID#1, …):
//
//	ID: start S end E on NODE,…                  completed
//	ID: start S end E on NODE,… restarts R lost L   completed after R stops by node events, L s of work lost
//	ID: killed start S end E on NODE,… (REASON)  killed (walltime, node failures)
//	ID: rejected (REASON)                        never ran
//	ID: queued (REASON)                          still waiting at the end
//
// S and E are the seconds of the run's start and end (a job stopped by a
// node event restarts; S stays its first start), and the nodes are those of
// its last run, sorted by index. Every run is replayed twice into two run
// directories, which must be the same byte for byte (wall-clock columns
// and provenance aside). `go test -run EngineScenarios -update` rewrites
// the expect: blocks with the outcomes, leaving the rest of each file as
// written; read the diff, and the comments' arithmetic, before committing.

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/native"
)

const engineScenarioDir = "../../testdata/engine-scenarios"

// scenarioFile is one scenario file, decoded strictly.
type scenarioFile struct {
	// Epoch, when set, is the trace's calendar time 0 (RFC 3339): the
	// runner writes it as jobs.jsonl's calendar line.
	Epoch   string            `yaml:"epoch"`
	Cluster yaml.Node         `yaml:"cluster"`
	Jobs    []yaml.Node       `yaml:"jobs"`
	Files   map[string]string `yaml:"files"`
	Runs    []scenarioRun     `yaml:"runs"`
}

// scenarioRun is one run of a scenario and the outcome it must give.
type scenarioRun struct {
	Name   string    `yaml:"name"`
	Config yaml.Node `yaml:"config"`
	Expect yaml.Node `yaml:"expect"` // a literal block (|), for -update
}

var update = flag.Bool("update", false, "rewrite the expect: blocks of the engine scenarios with the outcomes")

// runnerKeys are the spec keys the runner sets itself.
var runnerKeys = []string{"trace", "trace_format", "cluster", "platform", "out", "format", "quiet", "strict", "check"}

// The files the runner writes beside a scenario's own.
const (
	scenarioCluster = "cluster.yaml"
	scenarioJobs    = "jobs.jsonl"
)

func TestEngineScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(engineScenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", engineScenarioDir)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			sc, err := loadScenario(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			names, err := sc.materialise(path, dir)
			if err != nil {
				t.Fatal(err)
			}
			outcomes := make([]string, len(sc.Runs))
			for i, r := range sc.Runs {
				t.Run(r.Name, func(t *testing.T) {
					got, err := playTwice(t, path, dir, names, sc.jobOrder(), sc.traceLines(), r)
					if err != nil {
						t.Fatal(err)
					}
					outcomes[i] = got
					if want := strings.TrimRight(r.Expect.Value, "\n") + "\n"; got != want && !*update {
						t.Errorf("%s:%d: run %s: outcome differs from expect (go test -run EngineScenarios -update rewrites it):\n--- got\n%s--- want\n%s",
							path, r.Expect.Line, r.Name, got, want)
					}
				})
			}
			if *update && !t.Failed() {
				if err := rewriteExpects(path, sc.Runs, outcomes); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// loadScenario reads and checks a scenario file.
func loadScenario(path string) (*scenarioFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte("#")) {
		return nil, fmt.Errorf("%s: a scenario opens with a comment saying what it shows and why", path)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var sc scenarioFile
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var problems []string
	add := func(line int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", path, line, fmt.Sprintf(format, args...)))
	}
	if sc.Cluster.Kind != yaml.MappingNode {
		add(sc.Cluster.Line, "want a cluster: mapping (a cluster file)")
	}
	if len(sc.Jobs) == 0 {
		add(1, "want a jobs: list")
	}
	if len(sc.Runs) == 0 {
		add(1, "want a runs: list")
	}
	for name := range sc.Files {
		if name != filepath.Base(name) || name == scenarioCluster || name == scenarioJobs || strings.HasPrefix(name, ".") {
			add(1, "files: %q: want a plain file name other than %s and %s", name, scenarioCluster, scenarioJobs)
		}
	}
	seen := map[string]bool{}
	for _, r := range sc.Runs {
		switch {
		case r.Name == "" || strings.ContainsAny(r.Name, "/ "):
			add(r.Config.Line, "a run needs a name: without spaces or '/'")
		case seen[r.Name]:
			add(r.Config.Line, "run %s: given twice", r.Name)
		}
		seen[r.Name] = true
		if r.Config.Kind != 0 && r.Config.Kind != yaml.MappingNode {
			add(r.Config.Line, "run %s: config: want a mapping of spec keys", r.Name)
		}
		for i := 0; r.Config.Kind == yaml.MappingNode && i+1 < len(r.Config.Content); i += 2 {
			if k := r.Config.Content[i]; slices.Contains(runnerKeys, k.Value) {
				add(k.Line, "run %s: config: %s is the runner's to set (it owns %s)", r.Name, k.Value, strings.Join(runnerKeys, ", "))
			}
		}
		if r.Expect.Kind != yaml.ScalarNode || r.Expect.Style != yaml.LiteralStyle {
			add(r.Config.Line, "run %s: want an expect: | block (a literal block, one line a job)", r.Name)
		}
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return &sc, nil
}

// rewriteExpects replaces each run's expect: block in the file with its
// outcome, keeping everything else (comments included) as written. A
// literal block's lines are those after its key that are blank or indented
// deeper than the key.
func rewriteExpects(path string, runs []scenarioRun, outcomes []string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(data), "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i := len(runs) - 1; i >= 0; i-- { // from the end, so earlier line numbers hold
		key := runs[i].Expect.Line - 1 // the line of "expect: |"
		if key < 0 || key >= len(lines) {
			return fmt.Errorf("%s: run %s: expect block not found", path, runs[i].Name)
		}
		end := key + 1
		for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || indent(lines[end]) > indent(lines[key])) {
			end++
		}
		for end > key+1 && strings.TrimSpace(lines[end-1]) == "" {
			end-- // blank lines after the block stay
		}
		pad := strings.Repeat(" ", indent(lines[key])+2)
		var block []string
		for _, l := range strings.SplitAfter(strings.TrimRight(outcomes[i], "\n")+"\n", "\n") {
			if l != "" {
				block = append(block, pad+l)
			}
		}
		lines = slices.Concat(lines[:key+1], block, lines[end:])
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
}

// materialise writes the cluster file, the trace and the extra files into
// dir and returns the cluster's node names in index order.
func (sc *scenarioFile) materialise(path, dir string) ([]string, error) {
	cluster, err := yaml.Marshal(&sc.Cluster)
	if err != nil {
		return nil, err
	}
	clusterPath := filepath.Join(dir, scenarioCluster)
	if err := os.WriteFile(clusterPath, cluster, 0o644); err != nil {
		return nil, err
	}
	nodes, err := clusterconfig.Load(clusterPath)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: cluster: %v", path, sc.Cluster.Line, err)
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
	}
	var trace bytes.Buffer
	if sc.Epoch != "" {
		at, err := time.Parse(time.RFC3339, sc.Epoch)
		if err != nil {
			return nil, fmt.Errorf("%s: epoch: %v", path, err)
		}
		calendarLine, err := native.AppendCalendarLine(nil, at, "")
		if err != nil {
			return nil, err
		}
		trace.Write(calendarLine)
	}
	for i := range sc.Jobs {
		line, err := nodeJSON(&sc.Jobs[i])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: jobs[%d]: %v", path, sc.Jobs[i].Line, i, err)
		}
		trace.Write(line)
		trace.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, scenarioJobs), trace.Bytes(), 0o644); err != nil {
		return nil, err
	}
	for name, content := range sc.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// jobOrder is each job id's place in the jobs: list.
func (sc *scenarioFile) jobOrder() map[string]int {
	order := map[string]int{}
	for i, j := range sc.Jobs {
		for k := 0; k+1 < len(j.Content); k += 2 {
			if j.Content[k].Value == "id" {
				order[j.Content[k+1].Value] = i
			}
		}
	}
	return order
}

// nodeJSON writes a YAML value as JSON, keeping the order of mapping keys
// (a request lists its resources in the order the trace gives them).
func nodeJSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	var write func(n *yaml.Node) error
	write = func(n *yaml.Node) error {
		switch n.Kind {
		case yaml.MappingNode:
			b.WriteByte('{')
			for i := 0; i+1 < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteString(", ")
				}
				k, _ := json.Marshal(n.Content[i].Value)
				b.Write(k)
				b.WriteString(": ")
				if err := write(n.Content[i+1]); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		case yaml.SequenceNode:
			b.WriteByte('[')
			for i, item := range n.Content {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := write(item); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		case yaml.ScalarNode:
			switch n.ShortTag() {
			case "!!int", "!!float", "!!bool", "!!null":
				b.WriteString(n.Value)
			default:
				s, _ := json.Marshal(n.Value)
				b.Write(s)
			}
		default:
			return fmt.Errorf("line %d: want mappings, lists and plain values (no anchors or aliases)", n.Line)
		}
		return nil
	}
	err := write(n)
	return b.Bytes(), err
}

// playTwice replays run r twice and returns its outcome, after checking
// that both run directories are the same.
func playTwice(t *testing.T, path, dir string, names []string, order map[string]int, jobs []yaml.Node, r scenarioRun) (string, error) {
	spec := run.Default()
	spec.Trace = filepath.Join(dir, scenarioJobs)
	spec.Cluster = filepath.Join(dir, scenarioCluster)
	spec.Strict, spec.Check, spec.Quiet = true, true, true
	spec.Format = "csv"
	if r.Config.Kind == yaml.MappingNode {
		if err := spec.Overlay(path, &r.Config); err != nil {
			return "", err
		}
	}
	run.ResolvePaths(dir, &spec)
	if err := spec.Validate(); err != nil {
		return "", err
	}
	var outs [2]string
	for i := range outs {
		outs[i] = filepath.Join(dir, "runs", fmt.Sprintf("%s-%d", r.Name, i+1))
		spec.Out = outs[i]
		var stderr bytes.Buffer
		if _, err := run.Replay(t.Context(), &spec, run.Options{Stderr: &stderr}); err != nil {
			msg := fmt.Sprintf("%s: run %s: %v%s", path, r.Name, err, jobLine(err, path, jobs))
			if stderr.Len() > 0 {
				msg += "\n" + strings.TrimRight(stderr.String(), "\n")
			}
			return "", errors.New(msg)
		}
	}
	if err := runcmp.SameRun(outs[0], outs[1]); err != nil {
		return "", fmt.Errorf("%s: run %s: two replays differ: %v", path, r.Name, err)
	}
	return outcome(filepath.Join(outs[0], "jobs.csv"), names, order)
}

// traceLines are the nodes of jobs.jsonl's lines in order: the jobs,
// after the epoch's calendar line when there is one.
func (sc *scenarioFile) traceLines() []yaml.Node {
	if sc.Epoch == "" {
		return sc.Jobs
	}
	return append([]yaml.Node{{Line: 1}}, sc.Jobs...)
}

// jobLine names the scenario line of the job a trace error is about: jobs
// are the nodes of jobs.jsonl's lines (traceLines).
func jobLine(err error, path string, jobs []yaml.Node) string {
	var pe *traces.ParseError
	if !errors.As(err, &pe) || filepath.Base(pe.File) != scenarioJobs || pe.Line < 1 || pe.Line > len(jobs) {
		return ""
	}
	return fmt.Sprintf(" (the job at %s:%d)", path, jobs[pe.Line-1].Line)
}

// outcome renders a jobs table, one line a job, in the jobs: list's order.
func outcome(jobsCSV string, names []string, order map[string]int) (string, error) {
	f, err := os.Open(jobsCSV)
	if err != nil {
		return "", err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "", fmt.Errorf("%s: no header", jobsCSV)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, c := range []string{"job_id", "state", "reason", "start_s", "end_s", "node_list", "restarts", "lost_work_s"} {
		if _, ok := col[c]; !ok {
			return "", fmt.Errorf("%s: no column %s", jobsCSV, c)
		}
	}
	rows = rows[1:]
	place := func(id string) int {
		base, _, _ := strings.Cut(id, "#")
		if i, ok := order[base]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(rows, func(a, b []string) int {
		if d := place(a[col["job_id"]]) - place(b[col["job_id"]]); d != 0 {
			return d
		}
		return strings.Compare(a[col["job_id"]], b[col["job_id"]])
	})
	var out strings.Builder
	for _, row := range rows {
		get := func(c string) string { return row[col[c]] }
		nodes, err := nodeNames(get("node_list"), names)
		if err != nil {
			return "", fmt.Errorf("%s: job %s: %v", jobsCSV, get("job_id"), err)
		}
		line := get("job_id") + ":"
		state := get("state")
		if state != "completed" {
			line += " " + state
		}
		if get("start_s") != "" {
			line += " start " + get("start_s")
			if get("end_s") != "" {
				line += " end " + get("end_s")
			}
			line += " on " + nodes
		}
		if get("restarts") != "0" {
			line += " restarts " + get("restarts") + " lost " + get("lost_work_s")
		}
		if reason := get("reason"); reason != "" {
			line += " (" + reason + ")"
		}
		out.WriteString(line + "\n")
	}
	return out.String(), nil
}

// nodeNames turns the jobs table's node indices ("0-2,5") into the
// cluster's node names ("n1,n2,n3,n6").
func nodeNames(list string, names []string) (string, error) {
	if list == "" {
		return "-", nil
	}
	var out []string
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || b < a || b >= len(names) {
			return "", fmt.Errorf("bad node list %q", list)
		}
		for i := a; i <= b; i++ {
			out = append(out, names[i])
		}
	}
	return strings.Join(out, ","), nil
}
