package native

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// epoch has a fraction of a second, which the calendar keeps.
var epoch = time.Date(1996, 9, 23, 12, 0, 31, 250_000_000, time.UTC)

// TestCalendarRoundTrip: the epoch and the time zone come back from each
// encoding, in the text encodings from a first line that leaves the
// records as they were; an epoch given in another zone is written in UTC.
func TestCalendarRoundTrip(t *testing.T) {
	jobs := []*sim.Job{{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Gang: true}, {ID: "b", Submit: sim.Second, Walltime: sim.NoWalltime, Tasks: 1, Gang: true}}
	line, err := AppendCalendarLine(nil, epoch.In(time.FixedZone("CEST", 7200)), "Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# schedsim.epoch=1996-09-23T12:00:31.25Z schedsim.time_zone=Europe/Stockholm\n"; string(line) != want {
		t.Errorf("calendar line %q, want %q", line, want)
	}
	check := func(name string, r *Reader) {
		t.Helper()
		back, err := tracetest.Drain(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := dumpAll(back), dumpAll(jobs); got != want {
			t.Errorf("%s: jobs\n%s\nwant\n%s", name, got, want)
		}
		if e, zone := r.Calendar(); !e.Equal(epoch) || zone != "Europe/Stockholm" {
			t.Errorf("%s: calendar %v %q", name, e, zone)
		}
	}
	var jl, cs bytes.Buffer
	jl.Write(line)
	cs.Write(line)
	if err := WriteJSONL(&jl, jobs); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, jobs); err != nil {
		t.Fatal(err)
	}
	check("jsonl", NewJSONLReader(bytes.NewReader(jl.Bytes()), "t.jsonl", traces.Options{Strict: true}))
	check("csv", NewCSVReader(bytes.NewReader(cs.Bytes()), "t.csv", traces.Options{Strict: true}))
	data := parquetBytes(t, jobs, &Embedded{Epoch: epoch, TimeZone: "Europe/Stockholm"})
	r, err := NewParquetReader(bytes.NewReader(data), "t.parquet", traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Embedded(); !e.Epoch.Equal(epoch) || e.TimeZone != "Europe/Stockholm" {
		t.Errorf("parquet: embedded %v %q", e.Epoch, e.TimeZone)
	}
	check("parquet", r)
}

// TestCalendarOptional: either half of the calendar may be left out;
// without either there is no line; a first comment that is not a
// calendar line is an ordinary comment (JSON Lines); a trace without a
// calendar says so.
func TestCalendarOptional(t *testing.T) {
	for _, c := range []struct {
		epoch time.Time
		zone  string
		line  string
	}{
		{epoch, "", "# schedsim.epoch=1996-09-23T12:00:31.25Z\n"},
		{time.Time{}, "UTC", "# schedsim.time_zone=UTC\n"},
		{time.Time{}, "", ""},
	} {
		line, err := AppendCalendarLine(nil, c.epoch, c.zone)
		if err != nil || string(line) != c.line {
			t.Errorf("%v %q: line %q (%v), want %q", c.epoch, c.zone, line, err, c.line)
		}
		r := NewJSONLReader(strings.NewReader(string(line)+goodJSONL), "t.jsonl", traces.Options{Strict: true})
		if jobs, err := tracetest.Drain(r); err != nil || len(jobs) != 1 {
			t.Errorf("%q: %d jobs, %v", line, len(jobs), err)
		}
		if e, zone := r.Calendar(); !e.Equal(c.epoch) || zone != c.zone {
			t.Errorf("%q: calendar %v %q", line, e, zone)
		}
	}
	for _, in := range []string{
		"# schedsim is a simulator\n" + goodJSONL,
		"#schedsim\n" + goodJSONL,
		"#\n" + goodJSONL,
		goodJSONL + "# schedsim.time_zone=UTC\n", // not the first line: a comment
		"# " + strings.Repeat("x", maxCalendarLine) + "\n" + goodJSONL,
	} {
		r := NewJSONLReader(strings.NewReader(in), "t.jsonl", traces.Options{Strict: true})
		jobs, err := tracetest.Drain(r)
		if e, zone := r.Calendar(); err != nil || len(jobs) != 1 || !e.IsZero() || zone != "" {
			t.Errorf("%.40q: %d jobs, %v, calendar %v %q", in, len(jobs), err, e, zone)
		}
	}
}

// TestCalendarRejects: the writers refuse a zone the line could not
// carry, and a Parquet trace whose metadata epoch is not RFC 3339 is
// refused at open.
func TestCalendarRejects(t *testing.T) {
	if _, err := AppendCalendarLine(nil, epoch, "Europe/New York"); err == nil || err.Error() != "schedsim.time_zone: must be a time zone name without blanks" {
		t.Errorf("zone with a blank: %v", err)
	}
	var b bytes.Buffer
	if err := WriteParquet(&b, nil, &Embedded{TimeZone: "a\tb"}); err == nil || !strings.Contains(err.Error(), "schedsim.time_zone: must be a time zone name without blanks") {
		t.Errorf("parquet zone with a tab: %v", err)
	}
	kv := map[string]string{schemaKey: schemaName, epochKey: "1996-09-23 12:00:31"}
	_, _, err := readParquet(t, minimal(t, kv, []string{"a"}, []int64{0}, []int64{1}), traces.Options{})
	want := `t.parquet: metadata schedsim.epoch "1996-09-23 12:00:31": must be an RFC 3339 time (1996-09-23T12:00:31Z)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
