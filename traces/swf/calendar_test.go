package swf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// TestRequestedAndRecorded: RequestedProcs is field 8, else field 5, in
// both models; the wait (field 3) gives the recorded start submit + wait,
// fractions exact, 0 included; -1 is unknown.
//
//	job  submit  wait  alloc  req  → requested  recorded start
//	1    0       30    4      6      6          30
//	2    10      -1    5      -1     5          —
//	3    20      0     -1     3      3          20
//	4    25.5    2.5   2      2      2          28
func TestRequestedAndRecorded(t *testing.T) {
	data := "; MaxNodes: 4\n; MaxProcs: 16\n" +
		"1 0    30  10 4  -1 -1 6  100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10   -1  10 5  -1 -1 -1 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20   0   10 -1 -1 -1 3  100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"4 25.5 2.5 10 2  -1 -1 2  100 -1 1 1 1 -1 1 -1 -1 -1\n"
	type got struct {
		procs    int64
		recorded bool
		start    sim.Time
	}
	want := []got{{6, true, 30 * sim.Second}, {5, false, 0}, {3, true, 20 * sim.Second}, {2, true, 28 * sim.Second}}
	for _, m := range []Model{Pool, Nodes} {
		r, err := OpenBytes("x.swf", []byte(data), Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		jobs := tracetest.All(t, r)
		if len(jobs) != len(want) {
			t.Fatalf("%s: %d jobs", m, len(jobs))
		}
		for i, j := range jobs {
			if g := (got{j.RequestedProcs, j.Recorded, j.RecordedStart}); g != want[i] {
				t.Errorf("%s: job %s: %+v, want %+v", m, j.ID, g, want[i])
			}
		}
	}
}

// TestHeaderCalendar: UnixStartTime is the epoch; the zone is the named
// one, else the numeric offset as a fixed zone, else none.
func TestHeaderCalendar(t *testing.T) {
	head := func(lines ...string) *Header {
		h := &Header{}
		for i, l := range lines {
			h.parseHeaderLine(l, i+1)
		}
		return h
	}
	h := head("; UnixStartTime: 843480031", "; TimeZone: 3600", "; TimeZoneString: Europe/Stockholm")
	if !h.Epoch.Equal(time.Unix(843480031, 0)) || h.Epoch.Location() != time.UTC {
		t.Errorf("epoch %v", h.Epoch)
	}
	loc, err := h.Location()
	if err != nil || loc.String() != "Europe/Stockholm" {
		t.Errorf("location %v, %v", loc, err)
	}
	// Named zones keep daylight saving time; the offset stands in for a
	// missing or unknown name, standard time all year.
	for _, c := range []struct {
		h    *Header
		want string // the epoch's local time
	}{
		{h, "1996-09-23 14:00:31 CEST"},
		{head("; UnixStartTime: 843480031", "; TimeZone: 3600"), "1996-09-23 13:00:31 UTC+01:00"},
		{head("; UnixStartTime: 843480031", "; TimeZone: -28800", "; TimeZoneString: Nowhere/Atlantis"), "1996-09-23 04:00:31 UTC-08:00"},
		{head("; UnixStartTime: 843480031", "; TimeZone: -12600"), "1996-09-23 08:30:31 UTC-03:30"},
	} {
		loc, err := c.h.Location()
		if err != nil {
			t.Fatal(err)
		}
		if got := c.h.Epoch.In(loc).Format("2006-01-02 15:04:05 MST"); got != c.want {
			t.Errorf("%v: %s, want %s", c.h.Comments, got, c.want)
		}
	}
	if loc, err := head("; TimeZoneString: Nowhere/Atlantis").Location(); err == nil {
		t.Errorf("unknown zone without an offset: %v, no error", loc)
	}
	if h := head("; MaxProcs: 4"); !h.Epoch.IsZero() || h.TimeZone != "" {
		t.Errorf("no calendar lines: epoch %v zone %q", h.Epoch, h.TimeZone)
	}
	if loc, err := head("; MaxProcs: 4").Location(); loc != nil || err != nil {
		t.Errorf("no zone lines: %v, %v", loc, err)
	}
}

// TestRealLogsCalendar: every PWA log's StartTime line is its
// UnixStartTime in its TimeZoneString's local time, which checks both
// readings. HPC2N's first record is at 0: its first job is submitted at
// the UnixStartTime itself. KTH's cleaned log starts with job 15 (jobs 1
// to 14 were removed), submitted 599850 s after it, Mon Sep 30 10:38:01
// UTC 1996, and started 192180 s later (its wait).
func TestRealLogsCalendar(t *testing.T) {
	dir := "../../../shared/traces/swf"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/traces not present")
	}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz",
		"LLNL-Thunder-2007-1.1-cln.swf.gz", "HPC2N-2002-2.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz"} {
		r, err := Open(filepath.Join(dir, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header()
		loc, err := h.Location()
		if err != nil || loc == nil || h.Epoch.IsZero() {
			t.Fatalf("%s: epoch %v, location %v, %v", name, h.Epoch, loc, err)
		}
		if got, want := h.Epoch.In(loc).Format("Mon Jan 02 15:04:05 MST 2006"), strings.Join(strings.Fields(h.Fields["StartTime"]), " "); got != want {
			t.Errorf("%s: UnixStartTime in %s is %s, StartTime says %s", name, h.TimeZone, got, want)
		}
		first, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		at := h.Epoch.Add(time.Duration(first.Submit) * time.Microsecond)
		switch name {
		case "HPC2N-2002-2.1-cln.swf.gz":
			if !at.Equal(h.Epoch) {
				t.Errorf("%s: first job at %v, want the UnixStartTime %v", name, at, h.Epoch)
			}
		case "KTH-SP2-1996-2.1-cln.swf.gz":
			if want := time.Date(1996, 9, 30, 10, 38, 1, 0, time.UTC); first.ID != "15" || !at.Equal(want) ||
				!first.Recorded || first.RecordedStart != first.Submit+192180*sim.Second || first.RequestedProcs != 4 {
				t.Errorf("%s: first job %s at %v (want 15 at %v), recorded %v at %s, requested %d", name, first.ID, at, want,
					first.Recorded, first.RecordedStart, first.RequestedProcs)
			}
		}
		r.Close()
	}
}
