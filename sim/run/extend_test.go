package run

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/formats"
)

// The three "Adding …" sections of docs/development.md, done as a user
// outside the repository would: a trace format, a queue order with a
// typed argument and a placement strategy with a typed argument, each
// registered at run time, then used from a spec file as written by hand.

// linesOpens counts the opens of the test-lines format (the trace cache
// must open it once for two runs).
var linesOpens atomic.Int32

// A trace format: one job a line, "id submit_s runtime_s cpu".
var linesFormat = formats.Format{
	Name: "test-lines", Doc: "a test's: id submit_s runtime_s cpu, one job a line", Extensions: []string{".lines"},
	Cacheable: true, NeedsCluster: true,
	Open: func(r formats.Request) (*formats.Opened, error) {
		linesOpens.Add(1)
		f, err := os.Open(r.Path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var jobs []*sim.Job
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			var id string
			var submit, runtime float64
			var cpu int64
			if _, err := fmt.Sscan(sc.Text(), &id, &submit, &runtime, &cpu); err != nil {
				return nil, &traces.ParseError{File: r.Path, Line: line, Err: err}
			}
			jobs = append(jobs, &sim.Job{ID: id, Submit: sim.SecondsToTime(submit), Runtime: sim.SecondsToTime(runtime),
				Walltime: sim.SecondsToTime(2 * runtime), Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(cpu)}}})
		}
		return &formats.Opened{Source: &sim.SliceSource{Jobs: jobs}, Skips: func() traces.Skips { return traces.Skips{} }, Close: func() {}, Records: len(jobs)}, sc.Err()
	},
}

// A queue order with a typed argument: the latest submitted first when
// lifo is set, else FCFS.
type lifoArgs struct {
	LIFO     bool `yaml:"lifo"`
	MaxQueue int  `yaml:"max_queue,omitempty"`
}

func (a *lifoArgs) IsZero() bool { return *a == lifoArgs{} }

var lifoOrder = registry.Order{
	Name: "test-lifo", Doc: "a test's: last in, first out (lifo: true)",
	NewArgs: func() registry.Args { return &lifoArgs{} },
	Validate: func(args registry.Args, _ policies.Backfill) []error {
		if a := args.(*lifoArgs); a.MaxQueue < 0 {
			return []error{fmt.Errorf("max_queue: want ≥ 0, got %d", a.MaxQueue)}
		}
		return nil
	},
	Build: func(env registry.Env) (sim.Scheduler, policies.Order, error) {
		s, err := policies.NewBatchWith(env.Backfill, env.Cluster, env.Pipeline, env.Batch)
		if !env.Args.(*lifoArgs).LIFO {
			return s, policies.FCFS, err
		}
		return s, func(a, b *sim.JobRun) bool { return policies.FCFS(b, a) }, err
	},
}

// A placement strategy with a typed argument: the feasible node skip
// places after the first.
type skipArgs struct {
	Skip int `yaml:"skip"`
}

func (a *skipArgs) Validate() error {
	if a.Skip < 0 {
		return fmt.Errorf("skip: want ≥ 0, got %d", a.Skip)
	}
	return nil
}

type skipScorer struct{ skip int }

func (skipScorer) Name() string { return "test-skip" }

func (s skipScorer) Score(_ *placement.Ledger, _ *placement.Task, cands []int32, out []float64) {
	for i := range cands {
		out[i] = 0
		if i == min(s.skip, len(cands)-1) {
			out[i] = 1
		}
	}
}

var skipStrategy = placement.Strategy{
	Name: "test-skip", Doc: "a test's: the feasible node skip places after the first",
	NewArgs: func() placement.Args { return &skipArgs{} },
	Build: func(_ *sim.Cluster, s *placement.Spec) (*placement.Pipeline, error) {
		skip := 0
		if a, ok := s.Args.(*skipArgs); ok {
			skip = a.Skip
		}
		return &placement.Pipeline{Scorers: []placement.Weighted{{Scorer: skipScorer{skip}, Weight: 1}}}, nil
	},
}

func init() {
	for _, err := range []error{formats.Register(linesFormat), registry.RegisterQueue(lifoOrder), placement.RegisterStrategy(skipStrategy)} {
		if err != nil {
			panic(err)
		}
	}
}

// extendDir writes the trace (four jobs of 16 cpu), a cluster of four
// 16-cpu nodes and one of one node, on which the last three queue behind
// the first.
func extendDir(t *testing.T) string {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "four.lines"), "a 0 100 16\nb 1 10 16\nc 2 10 16\nd 3 10 16\n")
	write(t, filepath.Join(dir, "cluster.yaml"), "node_groups:\n  - {prefix: n, count: 4, resources: {cpu: 16}}\n")
	write(t, filepath.Join(dir, "one.yaml"), "node_groups:\n  - {prefix: n, count: 1, resources: {cpu: 16}}\n")
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaySpec loads the spec file text (beside the trace), replays it and
// returns its jobs table by job id.
func replaySpec(t *testing.T, dir, name, text string, opt Options) map[string]map[string]string {
	t.Helper()
	path := filepath.Join(dir, name+".yaml")
	write(t, path, text)
	return replayFile(t, path, filepath.Join(dir, name), opt)
}

// replayFile replays the spec file at path into out and returns its jobs
// table by job id.
func replayFile(t *testing.T, path, out string, opt Options) map[string]map[string]string {
	t.Helper()
	spec, err := Load(path)
	if err == nil {
		err = spec.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	spec.Format, spec.Quiet, spec.Out = "csv", true, out
	if _, err := Replay(context.Background(), &spec, opt); err != nil {
		t.Fatal(err)
	}
	jobs := map[string]map[string]string{}
	for _, row := range readJobs(t, out) {
		jobs[row["job_id"]] = row
	}
	return jobs
}

func TestAddTraceFormat(t *testing.T) {
	dir := extendDir(t)
	if got, err := formats.Sniff(filepath.Join(dir, "four.lines"), nil); err != nil || got != "test-lines" {
		t.Errorf("sniffed %q, %v", got, err)
	}
	if got := formats.TrimExtensions("four.lines.gz"); got != "four" {
		t.Errorf("run name %q", got)
	}
	// Without a cluster it is refused, naming the format.
	spec := Default()
	spec.Trace = filepath.Join(dir, "four.lines")
	if _, err := OpenWorkload(&spec, nil); err == nil || !strings.Contains(err.Error(), "this test-lines trace carries no cluster") {
		t.Errorf("no cluster: %v", err)
	}
	// Two runs of a sweep share one read (the trace cache), and a sweep
	// may name the format.
	cache := NewTraceCache()
	before := linesOpens.Load()
	for _, q := range []string{"fcfs", "sjf"} {
		jobs := replaySpec(t, dir, q, "trace: four.lines\ncluster: cluster.yaml\nbackfill: none\nqueue: "+q+"\n", Options{Traces: cache})
		if len(jobs) != 4 || jobs["d"]["state"] != "completed" {
			t.Errorf("%s: %v", q, jobs)
		}
	}
	if n := linesOpens.Load() - before; n != 1 {
		t.Errorf("opened %d times for two runs, want once", n)
	}
	exp := "seed: 1\ntraces:\n  - {path: four.lines, format: test-lines}\n"
	if _, err := experiment.Parse([]byte(exp), filepath.Join(dir, "exp.yaml")); err != nil {
		t.Errorf("experiment: %v", err)
	}
}

func TestAddQueueOrderWithArgs(t *testing.T) {
	dir := extendDir(t)
	// On one node the order decides who follows a: b (FCFS), or d, then
	// c, then b (lifo).
	base := "trace: four.lines\ncluster: one.yaml\nbackfill: none\nqueue: test-lifo\n"
	fifo := replaySpec(t, dir, "fifo", base, Options{})
	lifo := replaySpec(t, dir, "lifo", base+"test-lifo: {lifo: true}\n", Options{})
	if fifo["b"]["start_s"] != "100" || lifo["d"]["start_s"] != "100" || lifo["b"]["start_s"] != "120" {
		t.Errorf("fifo b starts %s, lifo d %s and b %s; want 100, 100, 120", fifo["b"]["start_s"], lifo["d"]["start_s"], lifo["b"]["start_s"])
	}
	// run.yaml carries the block; replaying it reproduces the run.
	again := replayFile(t, filepath.Join(dir, "lifo", "run.yaml"), filepath.Join(dir, "again"), Options{})
	for id, row := range lifo {
		if again[id]["start_s"] != row["start_s"] {
			t.Errorf("run.yaml replay: %s starts %s, was %s", id, again[id]["start_s"], row["start_s"])
		}
	}
	// The block is decoded strictly and validated by the order.
	bad := filepath.Join(dir, "bad.yaml")
	err := loadText(t, bad, "queue: test-lifo\ntest-lifo:\n  lifo: yes please\n  max_queu: 3\n", false)
	want := bad + ":3: test-lifo.lifo: want true or false, got \"yes please\"\n" +
		bad + ":4: unknown key \"test-lifo.max_queu\" (did you mean \"test-lifo.max_queue\"?)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	err = loadText(t, bad, "queue: test-lifo\ntest-lifo: {max_queue: -1}\n", true)
	if err == nil || !strings.Contains(err.Error(), bad+":2: test-lifo: max_queue: want ≥ 0, got -1") {
		t.Errorf("validate: %v", err)
	}
	// A Go program sets the typed block directly.
	spec := Default()
	ArgsOf[lifoArgs](&spec, "test-lifo").LIFO = true
	if a, ok := spec.Args.Get("test-lifo").(*lifoArgs); !ok || !a.LIFO {
		t.Errorf("ArgsOf: %+v", spec.Args.Get("test-lifo"))
	}
}

func TestAddPlacementStrategyWithArgs(t *testing.T) {
	dir := extendDir(t)
	base := "trace: four.lines\ncluster: cluster.yaml\nbackfill: none\nplacement:\n  strategy: test-skip\n"
	for skip, want := range map[int]string{0: "0", 2: "2"} { // node indexes
		jobs := replaySpec(t, dir, "skip"+strconv.Itoa(skip), base+"  skip: "+strconv.Itoa(skip)+"\n", Options{})
		if jobs["a"]["node_list"] != want {
			t.Errorf("skip %d: a on %q, want %s", skip, jobs["a"]["node_list"], want)
		}
	}
	bad := filepath.Join(dir, "bad.yaml")
	err := loadText(t, bad, base+"  skp: 1\n  calculator: cpu\n", false)
	want := bad + ":6: unknown key \"placement.skp\" (did you mean \"placement.skip\"?)\n" +
		bad + ":7: placement.calculator: strategy test-skip does not take it"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	write(t, bad, "trace: four.lines\ncluster: cluster.yaml\nplacement: {strategy: test-skip, skip: -1}\n")
	spec, err := Load(bad)
	if err == nil {
		spec.Out, spec.Quiet = filepath.Join(dir, "neg"), true
		_, err = Replay(context.Background(), &spec, Options{})
	}
	if err == nil || !strings.Contains(err.Error(), "placement test-skip: skip: want ≥ 0, got -1") {
		t.Errorf("validate: %v", err)
	}
}

// loadText writes text to path and loads it, validating it too when
// validate is set: the problems a user is told.
func loadText(t *testing.T, path, text string, validate bool) error {
	write(t, path, text)
	spec, err := Load(path)
	if err == nil && validate {
		err = spec.Validate()
	}
	return err
}
