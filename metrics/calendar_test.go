package metrics

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"

	"github.com/schedsim/schedsim/sim"
)

// TestCalendarColumns replays synthetic jobs with an epoch (with a
// fraction of a second, to exercise the CSV's fraction digits) in every
// format: the three agree, every timestamp is the epoch plus its second
// count, null exactly where the count is, and the Parquet and Arrow files
// record the epoch and time zone. Without an epoch none of it is there.
func TestCalendarColumns(t *testing.T) {
	c := synthCluster(t, 8)
	jobs := synthJobs(600, 11)
	epoch := time.Date(1996, 9, 23, 14, 0, 31, 250_000_000, time.FixedZone("CEST", 2*3600))
	opt := Options{Epoch: epoch, TimeZone: "Europe/Stockholm"}
	dirs := map[string]string{}
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dirs[f] = t.TempDir()
		opt.Format = f
		runCut(t, dirs[f], c, jobs, sim.Config{KillAtWalltime: true}, opt, FinalInfo{}, 100)
	}
	for _, name := range []string{"jobs", "timeseries"} {
		ref := readParquet(t, filepath.Join(dirs[FormatParquet], name+".parquet"))
		for _, f := range []string{FormatArrow, FormatCSV} {
			got := readAny(t, filepath.Join(dirs[f], name+"."+f), ref)
			for col, want := range ref {
				if !slices.Equal(got[col], want) {
					t.Errorf("%s.%s: column %s differs from parquet", name, f, col)
				}
			}
		}
	}

	// The instant of a second count, exact to the microsecond.
	at := func(s any) any {
		if s == nil {
			return nil
		}
		return epoch.Add(time.Duration(secs(s.(float64))) * time.Microsecond).UTC()
	}
	jobsT := readParquet(t, filepath.Join(dirs[FormatParquet], "jobs.parquet"))
	nulls := 0
	for i := range jobsT["job_id"] {
		for _, p := range [][2]string{{"submit_s", "submit_time"}, {"start_s", "start_time"}, {"end_s", "end_time"}} {
			if want, got := at(jobsT[p[0]][i]), jobsT[p[1]][i]; got != want {
				t.Fatalf("row %d: %s %v, %s %v: want %v", i, p[0], jobsT[p[0]][i], p[1], got, want)
			}
		}
		if jobsT["start_time"][i] == nil {
			nulls++
		}
	}
	if nulls == 0 {
		t.Error("no job without a start: the nulls are not exercised")
	}
	// Parquet says the instants are UTC (isAdjustedToUTC), so readers
	// such as DuckDB and pandas show instants, not local wall times.
	pf, err := file.OpenParquetFile(filepath.Join(dirs[FormatParquet], "jobs.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	col := pf.MetaData().Schema.Column(pf.MetaData().Schema.ColumnIndexByName("submit_time"))
	if ts, ok := col.LogicalType().(*schema.TimestampLogicalType); !ok || !ts.IsAdjustedToUTC() || ts.TimeUnit() != schema.TimeUnitMicros {
		t.Errorf("submit_time's Parquet type is %v, want a UTC microsecond timestamp", col.LogicalType())
	}
	pf.Close()
	ts := readParquet(t, filepath.Join(dirs[FormatParquet], "timeseries.parquet"))
	for i := range ts["time_s"] {
		if want := at(ts["time_s"][i]); ts["time"][i] != want {
			t.Fatalf("timeseries row %d: time %v, want %v", i, ts["time"][i], want)
		}
	}

	wantMeta := map[string]string{MetaEpoch: "1996-09-23T12:00:31.25Z", MetaTimeZone: "Europe/Stockholm"}
	for _, name := range []string{"jobs", "timeseries", "summary"} {
		pf, err := file.OpenParquetFile(filepath.Join(dirs[FormatParquet], name+".parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		kv := pf.MetaData().KeyValueMetadata()
		for k, v := range wantMeta {
			if got := kv.FindValue(k); got == nil || *got != v {
				t.Errorf("%s.parquet: metadata %s = %v, want %s", name, k, got, v)
			}
		}
		pf.Close()
		f, err := os.Open(filepath.Join(dirs[FormatArrow], name+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		meta := r.Schema().Metadata()
		for k, v := range wantMeta {
			if i := meta.FindKey(k); i < 0 || meta.Values()[i] != v {
				t.Errorf("%s.arrow: metadata %s missing or not %s (%v)", name, k, v, meta)
			}
		}
		r.Close()
		f.Close()
	}

	// ReadJobs gives the same instants from every format, and the
	// metadata from the binary ones.
	for f, dir := range dirs {
		back, err := ReadJobs(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := range back.Len() {
			for _, col := range []string{"submit_time", "start_time", "end_time"} {
				at, ok := back.Time(col, i)
				if want := jobsT[col][i]; (want == nil) == ok || (ok && at != want) {
					t.Fatalf("%s: ReadJobs row %d %s = %v (%v), want %v", f, i, col, at, ok, want)
				}
			}
		}
		if want := map[bool]string{true: "Europe/Stockholm"}[f != FormatCSV]; back.Metadata(MetaTimeZone) != want {
			t.Errorf("%s: ReadJobs metadata %s = %q, want %q", f, MetaTimeZone, back.Metadata(MetaTimeZone), want)
		}
	}

	// Without an epoch: no timestamp column, no metadata.
	plain := t.TempDir()
	runCut(t, plain, c, jobs[:50], sim.Config{}, Options{TimeZone: "Europe/Stockholm"}, FinalInfo{}, 0)
	for name, cols := range map[string][]string{"jobs": {"submit_time", "start_time", "end_time"}, "timeseries": {"time"}} {
		tb := readParquet(t, filepath.Join(plain, name+".parquet"))
		for _, col := range cols {
			if _, ok := tb[col]; ok {
				t.Errorf("%s has %s without an epoch", name, col)
			}
		}
		pf, err := file.OpenParquetFile(filepath.Join(plain, name+".parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		if kv := pf.MetaData().KeyValueMetadata(); kv.Len() != 0 {
			t.Errorf("%s.parquet: metadata %v without an epoch", name, kv)
		}
		pf.Close()
	}
}
