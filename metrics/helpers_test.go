package metrics

import (
	"context"
	"encoding/csv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/sim"
)

// fcfs is a strict first-come-first-served, first-fit scheduler: the head
// job starts on the lowest-numbered nodes with room, or nothing starts.
type fcfs struct{ nodes []int32 }

func (s *fcfs) Schedule(c *sim.Context) error {
	for _, j := range c.Queue() {
		if j.Status != sim.Queued {
			continue
		}
		s.nodes = s.nodes[:0]
		need := j.Job.Tasks
		for n := range c.Cluster().Nodes {
			for k := c.TasksFitting(j, n, need); k > 0; k-- {
				s.nodes = append(s.nodes, int32(n))
				need--
			}
			if need == 0 {
				break
			}
		}
		if need > 0 {
			return nil
		}
		if err := c.Start(j, s.nodes); err != nil {
			return err
		}
	}
	return nil
}

func secs(s float64) sim.Time { return sim.SecondsToTime(s) }

func cpu(n float64) []sim.Quantity {
	return []sim.Quantity{{Resource: "cpu", Amount: sim.Amount(n * 1000)}}
}

// twoNodes: a (4 cpu, 8 mem, 100–200 W) and b (4 cpu, 8 mem, 50–250 W).
// Power follows cpu, the default.
func twoNodes(t testing.TB) *sim.Cluster {
	t.Helper()
	c, err := sim.NewCluster([]sim.NodeSpec{
		{Name: "a", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}, {Resource: "mem", Amount: sim.Units(8)}},
			Power: sim.PowerModel{IdleW: 100, MaxW: 200}},
		{Name: "b", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}, {Resource: "mem", Amount: sim.Units(8)}},
			Power: sim.PowerModel{IdleW: 50, MaxW: 250}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func job(id string, submit, runtime, walltime float64, tasks int, cpus float64) *sim.Job {
	wt := sim.NoWalltime
	if walltime >= 0 {
		wt = secs(walltime)
	}
	return &sim.Job{ID: id, Submit: secs(submit), Runtime: secs(runtime), Walltime: wt, Tasks: tasks,
		Request: cpu(cpus), User: "u" + id, Group: "g", Queue: "q"}
}

// sevenJobs is the hand-computed scenario of TestHandComputed.
func sevenJobs() []*sim.Job {
	return []*sim.Job{
		job("1", 0, 100, 200, 1, 4),
		job("2", 10, 50, -1, 2, 2),
		job("3", 20, 5, -1, 1, 4),
		job("4", 30, 30, 20, 1, 4), // killed at its 20 s walltime
		job("5", 40, 10, -1, 1, 8), // no node has 8 cpus: rejected
		job("6", 50, 0, -1, 1, 1),
		job("7", 90, 10, 10, 2, 3),
	}
}

// run replays jobs on c into dir and closes the recorder.
func run(t testing.TB, dir string, c *sim.Cluster, jobs []*sim.Job, cfg sim.Config, opt Options, final FinalInfo) {
	t.Helper()
	runCut(t, dir, c, jobs, cfg, opt, final, 0)
}

// runCut is run with records cut every cut rows (0: the default), to
// exercise files made of many records. It checks that no Arrow memory
// leaks.
func runCut(t testing.TB, dir string, c *sim.Cluster, jobs []*sim.Job, cfg sim.Config, opt Options, final FinalInfo, cut int) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec, err := newRecorder(dir, c, opt, mem)
	if err != nil {
		t.Fatal(err)
	}
	if cut > 0 {
		rec.jobs.cut, rec.series.cut = cut, cut
	}
	chk := sim.NewChecker(c)
	e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, &fcfs{}, cfg, rec, chk)
	if err := e.Run(); err != nil {
		rec.Abort()
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(final); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)
}

// table is a file read back, every value as nil, int64, float64, string
// or time.Time (UTC).
type readTable map[string][]any

func readParquet(t testing.TB, path string) readTable {
	t.Helper()
	f, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fr, err := pqarrow.NewFileReader(f, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	return fromArrow(tbl)
}

func readIPC(t testing.TB, path string) readTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []arrow.Record
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rec.Retain()
		defer rec.Release()
		recs = append(recs, rec)
	}
	tbl := array.NewTableFromRecords(r.Schema(), recs)
	defer tbl.Release()
	return fromArrow(tbl)
}

func fromArrow(tbl arrow.Table) readTable {
	out := readTable{}
	for i, f := range tbl.Schema().Fields() {
		vals := []any{}
		for _, ch := range tbl.Column(i).Data().Chunks() {
			for k := 0; k < ch.Len(); k++ {
				if ch.IsNull(k) {
					vals = append(vals, nil)
					continue
				}
				switch a := ch.(type) {
				case *array.Float64:
					vals = append(vals, a.Value(k))
				case *array.Int64:
					vals = append(vals, a.Value(k))
				case *array.String:
					vals = append(vals, a.Value(k))
				case *array.Timestamp:
					vals = append(vals, time.UnixMicro(int64(a.Value(k))).UTC())
				default:
					panic("unexpected type " + f.Type.String())
				}
			}
		}
		out[f.Name] = vals
	}
	return out
}

// readCSV reads a CSV table as strings ("" for null).
func readCSV(t testing.TB, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return all[0], all[1:]
}

// files lists the names in dir, sorted.
func files(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func readFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// synthCluster has n nodes of 32 cpus and 128 mem; every fourth also has
// 4 gpus, which then drive its power.
func synthCluster(t testing.TB, n int) *sim.Cluster {
	t.Helper()
	nodes := make([]sim.NodeSpec, n)
	for i := range nodes {
		nodes[i] = sim.NodeSpec{
			Name:     "node-" + strconv.Itoa(i),
			Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(32)}, {Resource: "Mem GB", Amount: sim.Units(128)}},
			Power:    sim.PowerModel{IdleW: 100, MaxW: 350},
		}
		if i%4 == 3 {
			nodes[i].Capacity = append(nodes[i].Capacity, sim.Quantity{Resource: "gpu", Amount: sim.Units(4)})
			nodes[i].Power = sim.PowerModel{IdleW: 150, MaxW: 1500, Resource: "gpu"}
		}
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// synthJobs makes n jobs from a seeded stream: arrivals a few seconds
// apart (sometimes together), fractional runtimes, unknown or short
// walltimes, a few gpu jobs and a few that fit nowhere.
func synthJobs(n int, seed uint64) []*sim.Job {
	rng := rand.New(rand.NewPCG(seed, 1))
	jobs := make([]*sim.Job, n)
	var now sim.Time
	users := []string{"alice", "bob", "carol", "dave", "eve"}
	for i := range jobs {
		if rng.IntN(4) > 0 {
			now += sim.Time(rng.Int64N(int64(40 * sim.Second)))
		}
		runtime := sim.Time(rng.Int64N(int64(3000 * sim.Second)))
		wall := sim.NoWalltime
		if rng.IntN(3) > 0 {
			wall = runtime * sim.Time(50+rng.IntN(100)) / 100 // half of them get killed
		}
		req := []sim.Quantity{
			{Resource: "cpu", Amount: sim.Amount(500 + rng.IntN(16000))},
			{Resource: "Mem GB", Amount: sim.Units(int64(1 + rng.IntN(64)))},
		}
		switch rng.IntN(50) {
		case 0:
			req[0].Amount = sim.Units(40) // fits on no node: rejected
		case 1, 2, 3:
			req = append(req, sim.Quantity{Resource: "gpu", Amount: sim.Units(int64(1 + rng.IntN(4)))})
		}
		jobs[i] = &sim.Job{ID: "j" + strconv.Itoa(i), Submit: now, Runtime: runtime, Walltime: wall,
			Tasks: 1 + rng.IntN(4), Request: req, User: users[rng.IntN(len(users))], Group: "g", Queue: "batch"}
	}
	return jobs
}
