package google

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// TestLookaheadDoesNotMatter: the look-ahead only moves work between the
// first pass's index and the second pass's window; the jobs, the cluster
// and the statistics are the same for 1 µs (everything that does not end
// at its submit instant is indexed), the default and 10^6 s (only the
// attempts open at the end are indexed).
func TestLookaheadDoesNotMatter(t *testing.T) {
	for _, v := range []string{"2011", "2019"} {
		dir := filepath.Join(testdata, v)
		var first string
		indexed := map[sim.Time]int{}
		for _, la := range []sim.Time{1, DefaultLookahead, 1e6 * sim.Second} {
			r, jobs := openAll(t, dir, Options{Lookahead: la})
			got := dump(r, jobs)
			indexed[la] = r.Stats().Indexed
			if first == "" {
				first = got
			} else if got != first {
				t.Errorf("%s: lookahead %s changes the result:\n%s\nvs\n%s", v, la, got, first)
			}
		}
		// 2011: 11 attempts, 2 open at the end (100-1 running, 500-0
		// pending); every attempt but 100-1's and 500-0's ends after its
		// submit, so 1 µs indexes all 11.
		if v == "2011" && (indexed[1] != 11 || indexed[1e6*sim.Second] != 2) {
			t.Errorf("2011: indexed %v, want 11 at 1 µs and 2 at 10^6 s", indexed)
		}
	}
}

// sampleRows returns the 2011 sample's task_events lines in time order.
func sampleRows(t testing.TB) []string {
	t.Helper()
	var lines []string
	parts, _ := filepath.Glob(filepath.Join(testdata, "2011", "task_events", "*.csv.gz"))
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(z)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(strings.TrimSpace(string(data)), "\n")...)
	}
	sort.SliceStable(lines, func(i, j int) bool { return timeOf(lines[i]) < timeOf(lines[j]) })
	return lines
}

func timeOf(line string) int64 {
	v, _ := strconv.ParseInt(line[:strings.IndexByte(line, ',')], 10, 64)
	return v
}

// TestMergeOutOfOrderParts: the sample's task events cut into three part
// files whose names are not in time order and whose spans overlap
// (part 0: ≥ 1000 s and a record at 760 s; part 1: < 700 s and one at
// 1300 s; part 2: the rest) read as the original (2011.golden).
func TestMergeOutOfOrderParts(t *testing.T) {
	var p0, p1, p2 []string
	for _, l := range sampleRows(t) {
		at := timeOf(l)
		switch {
		case at >= 1000e6 && !strings.HasPrefix(l, "1300000000,,400,1,"), at == 760e6:
			p0 = append(p0, l)
		case at < 700e6, strings.HasPrefix(l, "1300000000,,400,1,"):
			p1 = append(p1, l)
		default:
			p2 = append(p2, l)
		}
	}
	dir, _ := copyTrace(t, "2011", map[string]string{"task_events": ""})
	os.Remove(filepath.Join(dir, "task_events", "part-00000-of-00001.csv"))
	for i, p := range [][]string{p0, p1, p2} {
		sort.SliceStable(p, func(a, b int) bool { return timeOf(p[a]) < timeOf(p[b]) }) // each part in time order
		name := filepath.Join(dir, "task_events", "part-0000"+strconv.Itoa(i)+"-of-00003.csv")
		if err := os.WriteFile(name, []byte(strings.Join(p, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, jobs := openAll(t, dir, Options{Options: traces.Options{Strict: true}})
	want, err := os.ReadFile(filepath.Join(testdata, "2011.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(r, jobs); got != string(want) {
		t.Errorf("merged parts read differently:\n%s", got)
	}
}

// TestMergerOrder: records of overlapping parts come out by time, then
// table rank, then part order, and a part is opened only when the merge
// reaches its first time: with parts [0 1 2], [5 6] and [10 11], never
// more than one is open after the first.
func TestMergerOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a", "0,a\n1,a\n2,a\n")
	b := write("b", "5,b\n6,b\n")
	c := write("c", "10,c\n11,c\n")
	d := write("d", "1,d\n5,d\n")
	type rec struct {
		at  sim.Time
		tag string
	}
	parse := func(line []byte) (rec, sim.Time, *fieldError) {
		s := strings.Split(string(line), ",")
		v, _ := strconv.ParseInt(s[0], 10, 64)
		return rec{sim.Time(v), s[1]}, sim.Time(v), nil
	}
	lo := &table[rec]{name: "lo", rank: 0, parse: parse}
	hi := &table[rec]{name: "hi", rank: 1, parse: parse}
	var skips traces.Skips
	m, err := newMerger(traces.Options{}, &skips, []*table[rec]{hi, lo}, [][]string{{c, b, a}, {d}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	var got []string
	maxOpen := 0
	for {
		r, err := m.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		maxOpen = max(maxOpen, len(m.open))
		got = append(got, strconv.FormatInt(int64(r.at), 10)+r.tag)
	}
	// At 1 and 5 the "lo" table's d comes before the "hi" parts.
	want := "0a 1d 1a 2a 5d 5b 6b 10c 11c"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got %s, want %s", s, want)
	}
	// a and d overlap (0–2, 1–5); b opens at 5 while d is still open.
	if maxOpen > 2 {
		t.Errorf("%d parts open at once, want ≤ 2", maxOpen)
	}
}

// fuzzTrace reads a trace whose task table is data, in both modes, and
// checks what every reader promises: jobs in submit order, one task,
// runtime ≥ 0, known constraint kinds, no skips in strict mode, and the
// same jobs in both modes when strict mode reads to the end.
func fuzzTrace(t *testing.T, v, table string, data []byte) {
	if bytes.Count(data, []byte("\n")) > 200 {
		return
	}
	dir, _ := copyTrace(t, v, map[string]string{table: string(data)})
	var strictJobs []string
	for _, strict := range []bool{true, false} {
		r, err := Open(dir, Options{Options: traces.Options{Strict: strict}, Lookahead: 50 * sim.Second})
		if err != nil {
			if strict {
				continue
			}
			t.Fatalf("lenient open: %v", err)
		}
		var last sim.Time
		var jobs []string
		for {
			j, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if strict {
					jobs = nil
					break
				}
				t.Fatalf("lenient read: %v", err)
			}
			if j.Submit < last || j.Runtime < 0 || j.Tasks != 1 || j.ID == "" {
				t.Fatalf("reader let through %s", dumpJob(j))
			}
			for _, c := range j.Traits.Constraints {
				if err := sim.CheckConstraint(c); err != nil {
					t.Fatalf("%s: %v", dumpJob(j), err)
				}
			}
			last = j.Submit
			jobs = append(jobs, dumpJob(j))
		}
		r.Close()
		if strict {
			if r.Skips().Total != 0 {
				t.Fatalf("strict reader skipped %d", r.Skips().Total)
			}
			strictJobs = jobs
		} else if strictJobs != nil && strings.Join(strictJobs, "\n") != strings.Join(jobs, "\n") {
			t.Fatalf("strict and lenient differ on a clean trace")
		}
	}
}

func FuzzGoogle2011(f *testing.F) {
	rows := sampleRows(f)
	f.Add([]byte(strings.Join(rows, "\n") + "\n"))
	for _, c := range errors2011 {
		if c.table == "task_events" {
			f.Add([]byte(good[c.table] + "\n" + c.line + "\n"))
		}
	}
	f.Add([]byte("0,,1,0,,0,u,0,0,0.1,0.1,0,1\n0,,1,0,,1,u,0,0,,,,\n10,,1,0,,0,u,0,0,,,,\n9223372036854775807,,1,0,,4,u,0,0,,,,\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzTrace(t, "2011", "task_events", data) })
}

func FuzzGoogle2019(f *testing.F) {
	for _, name := range []string{"instance_events-000000000000.json.gz", "instance_events-000000000001.json.gz"} {
		fh, err := os.Open(filepath.Join(testdata, "2019", name))
		if err != nil {
			f.Fatal(err)
		}
		z, err := gzip.NewReader(fh)
		if err != nil {
			f.Fatal(err)
		}
		data, _ := io.ReadAll(z)
		fh.Close()
		f.Add(data)
	}
	for _, c := range errors2019 {
		if c.table == "instance_events" {
			f.Add([]byte(good[c.table] + "\n" + c.line + "\n"))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzTrace(t, "2019", "instance_events", data) })
}
