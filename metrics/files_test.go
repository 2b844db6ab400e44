package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedsim/schedsim/sim"
)

// readAny reads a table file of any format back. CSV has no types, so its
// values are typed like the Parquet twin's (ref); 'g' −1 floats read back
// to the same bits, so the three formats must agree exactly.
func readAny(t *testing.T, path string, ref readTable) readTable {
	t.Helper()
	switch filepath.Ext(path) {
	case ".parquet":
		return readParquet(t, path)
	case ".arrow":
		return readIPC(t, path)
	}
	header, rows := readCSV(t, path)
	out := readTable{}
	for i, name := range header {
		vals := []any{}
		for r, row := range rows {
			v := row[i]
			switch ref[name][r].(type) {
			case nil:
				if v != "" {
					t.Fatalf("%s: %s row %d = %q, want null", path, name, r, v)
				}
				vals = append(vals, nil)
			case float64:
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%s: %s row %d: %v", path, name, r, err)
				}
				vals = append(vals, f)
			case int64:
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatalf("%s: %s row %d: %v", path, name, r, err)
				}
				vals = append(vals, n)
			case time.Time:
				at, err := time.Parse(time.RFC3339Nano, v)
				if err != nil {
					t.Fatalf("%s: %s row %d: %v", path, name, r, err)
				}
				vals = append(vals, at)
			default:
				vals = append(vals, v)
			}
		}
		out[name] = vals
	}
	return out
}

// TestFormatsAgree replays 3000 synthetic jobs, cutting records every 100
// rows, into each format, and reads every table back: same columns, same
// rows, same values. It also checks row counts and column sums against
// the summary.
func TestFormatsAgree(t *testing.T) {
	c := synthCluster(t, 16)
	jobs := synthJobs(3000, 7)
	dirs := map[string]string{}
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dirs[f] = t.TempDir()
		runCut(t, dirs[f], c, jobs, sim.Config{KillAtWalltime: true}, Options{Format: f}, FinalInfo{WallSeconds: 1}, 100)
	}
	for _, name := range []string{"jobs", "timeseries", "nodes", "summary"} {
		ref := readParquet(t, filepath.Join(dirs[FormatParquet], name+".parquet"))
		for _, f := range []string{FormatArrow, FormatCSV} {
			got := readAny(t, filepath.Join(dirs[f], name+"."+f), ref)
			if len(got) != len(ref) {
				t.Errorf("%s.%s: %d columns, parquet has %d", name, f, len(got), len(ref))
			}
			for col, want := range ref {
				if !slices.Equal(got[col], want) {
					t.Errorf("%s.%s: column %s differs from parquet", name, f, col)
				}
			}
		}
	}

	jobsT := readParquet(t, filepath.Join(dirs[FormatParquet], "jobs.parquet"))
	s, err := ReadSummaryCSV(filepath.Join(dirs[FormatParquet], "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strconv.Itoa(len(jobsT["job_id"])); n != s["jobs"] || n != "3000" {
		t.Errorf("jobs rows %s, summary says %s", n, s["jobs"])
	}
	count := map[string]int{}
	var waitSum, energySum float64
	var started int
	for i, st := range jobsT["state"] {
		count[st.(string)]++
		if w := jobsT["wait_s"][i]; w != nil {
			waitSum += w.(float64)
			started++
		}
		energySum += jobsT["energy_j"][i].(float64)
	}
	for _, k := range []string{"completed", "killed", "rejected"} {
		if strconv.Itoa(count[k]) != s["jobs_"+k] || count[k] == 0 {
			t.Errorf("%d %s rows, summary says %s", count[k], k, s["jobs_"+k])
		}
	}
	if mean, _ := strconv.ParseFloat(s["mean_wait_s"], 64); !near(waitSum/float64(started), mean) {
		t.Errorf("mean wait from rows %v, summary %v", waitSum/float64(started), mean)
	}
	// Σ node energy = idle · makespan + Σ job energy = ∫ power dt.
	nodesT := readParquet(t, filepath.Join(dirs[FormatParquet], "nodes.parquet"))
	makespan, _ := strconv.ParseFloat(s["makespan_s"], 64)
	var nodeE, idle float64
	for i := range nodesT["energy_j"] {
		nodeE += nodesT["energy_j"][i].(float64)
		idle += nodesT["idle_w"][i].(float64)
	}
	total, _ := strconv.ParseFloat(s["energy_j"], 64)
	if !near(nodeE, total) || !near(idle*makespan+energySum, total) {
		t.Errorf("energy: nodes %v, idle+jobs %v, summary %v", nodeE, idle*makespan+energySum, total)
	}
	// The timeseries ends at the makespan's end and skips repeated states.
	ts := readParquet(t, filepath.Join(dirs[FormatParquet], "timeseries.parquet"))
	times := ts["time_s"]
	first := times[0].(float64) // the first step is at the first submit
	if last := times[len(times)-1].(float64); !near(last-first, makespan) {
		t.Errorf("last row at %v, makespan %v", last, makespan)
	}
	for i := 1; i < len(times); i++ {
		same := true
		for col, vals := range ts {
			if col != "time_s" && vals[i] != vals[i-1] {
				same = false
			}
		}
		if same && i < len(times)-1 {
			t.Errorf("timeseries rows %d and %d repeat the same state", i-1, i)
		}
	}
	// Small cuts give many row groups.
	pf, err := file.OpenParquetFile(filepath.Join(dirs[FormatParquet], "jobs.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRowGroups() != 30 {
		t.Errorf("%d row groups, want 3000/100", pf.NumRowGroups())
	}
	if kv := pf.MetaData().KeyValueMetadata(); kv.Len() != 0 {
		t.Errorf("parquet metadata %v", kv)
	}
	// A REPEATED root (the library's default) breaks readers such as
	// hyparquet; pyarrow writes REQUIRED.
	if rep := pf.MetaData().Schema.Root().RepetitionType(); rep != parquet.Repetitions.Required {
		t.Errorf("root repetition %v", rep)
	}
}

// TestDeterministic runs the same replay twice per format: every file is
// the same bytes, except the wall-clock columns of the summary.
func TestDeterministic(t *testing.T) {
	c := synthCluster(t, 8)
	jobs := synthJobs(2000, 3)
	wall := map[string]bool{"wall_s": true, "events_per_s": true, "jobs_per_s": true}
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		a, b := t.TempDir(), t.TempDir()
		runCut(t, a, c, jobs, sim.Config{KillAtWalltime: true}, Options{Format: f}, FinalInfo{WallSeconds: 1.5}, 300)
		runCut(t, b, c, jobs, sim.Config{KillAtWalltime: true}, Options{Format: f}, FinalInfo{WallSeconds: 2.25}, 300)
		names := files(t, a)
		if !slices.Equal(names, files(t, b)) {
			t.Fatalf("%s: files %v vs %v", f, names, files(t, b))
		}
		for _, n := range names {
			if strings.HasPrefix(n, "summary.") {
				continue
			}
			if !bytes.Equal(readFile(t, a, n), readFile(t, b, n)) {
				t.Errorf("%s differs between identical runs", n)
			}
		}
		sa, _ := ReadSummaryCSV(filepath.Join(a, "summary.csv"))
		sb, _ := ReadSummaryCSV(filepath.Join(b, "summary.csv"))
		for k, v := range sa {
			if (v == sb[k]) == wall[k] {
				t.Errorf("%s: summary %s: %q vs %q", f, k, v, sb[k])
			}
		}
		if f == FormatParquet {
			ta := readParquet(t, filepath.Join(a, "summary.parquet"))
			tb := readParquet(t, filepath.Join(b, "summary.parquet"))
			for k := range ta {
				if !wall[k] && !slices.Equal(ta[k], tb[k]) {
					t.Errorf("summary.parquet %s: %v vs %v", k, ta[k], tb[k])
				}
			}
		}
	}
}

// failingSource yields jobs then an error, like a strict reader meeting a
// bad record.
type failingSource struct {
	sim.SliceSource
	left int
}

func (s *failingSource) Next() (*sim.Job, error) {
	if s.left == 0 {
		return nil, errors.New("bad record")
	}
	s.left--
	return s.SliceSource.Next()
}

// TestAbortMidway: a run that fails after records were already streamed
// leaves nothing under a final name, and nothing at all after Abort.
func TestAbortMidway(t *testing.T) {
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dir := t.TempDir()
		c := synthCluster(t, 4)
		rec, err := NewRecorder(dir, c, Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		rec.jobs.cut, rec.series.cut = 2, 2
		src := &failingSource{SliceSource: sim.SliceSource{Jobs: synthJobs(500, 1)}, left: 300}
		if err := sim.NewEngine(c, src, &fcfs{}, sim.Config{}, rec).Run(); err == nil {
			t.Fatal("run did not fail")
		}
		names := files(t, dir)
		if len(names) != 2 {
			t.Errorf("%s: during the run: %v, want two temp files", f, names)
		}
		for _, n := range names {
			if !strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".tmp") {
				t.Errorf("%s: final-named file %s before Close", f, n)
			}
		}
		// Close refuses a run that never reached Finished, and cleans up.
		if err := rec.Close(FinalInfo{}); err == nil {
			t.Errorf("%s: Close of an unfinished run succeeded", f)
		}
		if names := files(t, dir); len(names) != 0 {
			t.Errorf("%s: left behind %v", f, names)
		}
		rec.Abort() // harmless twice
	}
}

// brokenWriter fails its first write, like a full disk.
type brokenWriter struct{}

func (brokenWriter) write(arrow.Record) error { return errors.New("disk full") }
func (brokenWriter) close() error             { return nil }

func TestWriteErrorSurfaces(t *testing.T) {
	dir := t.TempDir()
	c := twoNodes(t)
	rec, err := NewRecorder(dir, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec.jobs.tw.close()
	// The encoder reads tw only after receiving the first record, which
	// is sent after this assignment.
	rec.jobs.tw, rec.jobs.cut = brokenWriter{}, 1
	if err := sim.NewEngine(c, &sim.SliceSource{Jobs: sevenJobs()}, &fcfs{}, sim.Config{}, rec).Run(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(FinalInfo{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close = %v, want the write error", err)
	}
	if names := files(t, dir); len(names) != 0 {
		t.Errorf("left behind %v", names)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.yaml")
	if err := WriteFileAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "seed: 1\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(path, func(w io.Writer) error {
		fmt.Fprint(w, "seed: 2\n")
		return errors.New("boom")
	})
	if err == nil {
		t.Fatal("failed write reported success")
	}
	if got := string(readFile(t, dir, "run.yaml")); got != "seed: 1\n" {
		t.Errorf("run.yaml = %q after a failed rewrite", got)
	}
	if names := files(t, dir); !slices.Equal(names, []string{"run.yaml"}) {
		t.Errorf("dir holds %v", names)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
}
