package run

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/traces/embedded"
)

// The walkthrough (docs/walkthrough.md) replays a Slurm accounting dump of
// six weeks of KTH-SP2. It is made from the embedded SWF log by
// walkthroughDump; TestWalkthroughDump checks that the committed dump is
// what it makes, and rewrites it with
//
//	go test ./sim/run -run TestWalkthroughDump -update-walkthrough
var updateWalkthrough = flag.Bool("update-walkthrough", false, "rewrite testdata/walkthrough/kth-sp2.sacct.gz from the embedded KTH-SP2 log")

const (
	walkthroughDir   = "../../testdata/walkthrough"
	walkthroughTrace = walkthroughDir + "/kth-sp2.sacct.gz"
	walkthroughConf  = walkthroughDir + "/slurm.conf"
	// The dump covers the jobs submitted from walkthroughFrom to
	// walkthroughUntil, KTH's local time, and is taken at walkthroughUntil:
	// no daylight-saving change falls inside, so every local time sacct
	// prints is unambiguous.
	walkthroughFrom  = "1996-11-01T00:00:00"
	walkthroughUntil = "1996-12-15T00:00:00"
	walkthroughZone  = "Europe/Stockholm"
)

// walkthroughHeader is the dump's header: the fields of
// sacct --allocations --parsable2 --format=… in that order.
const walkthroughHeader = "JobID|JobIDRaw|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|State"

// swfRecord is the part of an SWF record the dump needs (times in seconds
// from the log's UnixStartTime).
type swfRecord struct {
	id, submit, wait, runtime, procs, reqTime, status, user, group int64
}

// readSWF reads the log's UnixStartTime and its records.
func readSWF(r io.Reader) (start int64, recs []swfRecord, err error) {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, ";"); ok {
			if v, ok := strings.CutPrefix(strings.TrimSpace(rest), "UnixStartTime:"); ok {
				if start, err = strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
					return 0, nil, fmt.Errorf("line %d: UnixStartTime: %w", line, err)
				}
			}
			continue
		}
		f := strings.Fields(text)
		if len(f) < 18 {
			return 0, nil, fmt.Errorf("line %d: %d fields, want 18", line, len(f))
		}
		var v [18]int64
		for i := range v {
			if v[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
				return 0, nil, fmt.Errorf("line %d field %d: %w", line, i+1, err)
			}
		}
		recs = append(recs, swfRecord{id: v[0], submit: v[1], wait: v[2], runtime: v[3], procs: v[4],
			reqTime: v[8], status: v[10], user: v[11], group: v[12]})
	}
	if start == 0 {
		return 0, nil, fmt.Errorf("no UnixStartTime in the header")
	}
	return start, recs, sc.Err()
}

// slurmDuration prints seconds as sacct does: [D-]HH:MM:SS.
func slurmDuration(s int64) string {
	d, s := s/86400, s%86400
	hms := fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	if d > 0 {
		return fmt.Sprintf("%d-%s", d, hms)
	}
	return hms
}

// walkthroughDump writes, from the SWF log in swf, the sacct dump of the
// jobs submitted in [from, until) local time, as sacct would have printed
// it at until: Submit, Start, End calendar times from the header's
// UnixStartTime in loc; Timelimit the requested time; NNodes = NCPUS the
// allocated processors (the SP2's nodes had one each); User u<user id>,
// Account g<group id>, one partition. State: TIMEOUT when the job ran for
// its whole requested time, else COMPLETED (SWF status 1) or FAILED;
// RUNNING at until (End Unknown, Elapsed so far) and PENDING (Start
// Unknown) for jobs that had not ended or started by then.
func walkthroughDump(swf io.Reader, out io.Writer, loc *time.Location, from, until time.Time) (jobs int, err error) {
	start, recs, err := readSWF(swf)
	if err != nil {
		return 0, err
	}
	const layout = "2006-01-02T15:04:05"
	at := func(s int64) time.Time { return time.Unix(start+s, 0).In(loc) }
	w := bufio.NewWriter(out)
	fmt.Fprintln(w, walkthroughHeader)
	for _, r := range recs {
		submit := at(r.submit)
		if submit.Before(from) || !submit.Before(until) {
			continue
		}
		began, ended := at(r.submit+r.wait), at(r.submit+r.wait+r.runtime)
		startText, endText, elapsed := began.Format(layout), ended.Format(layout), r.runtime
		state := "FAILED"
		switch {
		case r.runtime >= r.reqTime:
			state = "TIMEOUT"
		case r.status == 1:
			state = "COMPLETED"
		}
		switch {
		case !began.Before(until):
			startText, endText, elapsed, state = "Unknown", "Unknown", 0, "PENDING"
		case !ended.Before(until):
			endText, elapsed, state = "Unknown", int64(until.Sub(began).Seconds()), "RUNNING"
		}
		fmt.Fprintf(w, "%d|%d|u%d|g%d|sp2|%s|%s|%s|%s|%s|%d|%d|%s\n", r.id, r.id, r.user, r.group,
			submit.Format(layout), startText, endText, slurmDuration(elapsed), slurmDuration(r.reqTime),
			r.procs, r.procs, state)
		jobs++
	}
	return jobs, w.Flush()
}

// makeWalkthroughDump returns the dump, uncompressed, and its job count.
func makeWalkthroughDump(t *testing.T) ([]byte, int) {
	t.Helper()
	loc, err := time.LoadLocation(walkthroughZone)
	if err != nil {
		t.Fatal(err)
	}
	from, err1 := time.ParseInLocation("2006-01-02T15:04:05", walkthroughFrom, loc)
	until, err2 := time.ParseInLocation("2006-01-02T15:04:05", walkthroughUntil, loc)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	zr, err := gzip.NewReader(bytes.NewReader(embedded.KTH))
	if err != nil {
		t.Fatal(err)
	}
	var dump bytes.Buffer
	jobs, err := walkthroughDump(zr, &dump, loc, from, until)
	if err != nil {
		t.Fatalf("%s: %v", embedded.KTHName, err)
	}
	return dump.Bytes(), jobs
}

// The committed dump is the one the generator makes from the embedded log.
func TestWalkthroughDump(t *testing.T) {
	want, jobs := makeWalkthroughDump(t)
	if *updateWalkthrough {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(want)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(walkthroughTrace, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d jobs, %d bytes", walkthroughTrace, jobs, gz.Len())
	}
	f, err := os.Open(walkthroughTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what the generator makes from %s (rewrite it with -update-walkthrough)", walkthroughTrace, embedded.KTHName)
	}
}

// The dump replays on the slurm.conf: every job but those pending at dump
// time, each with its recorded start, so calibration compares them all.
func TestWalkthroughReplays(t *testing.T) {
	dump, jobs := makeWalkthroughDump(t)
	pending := bytes.Count(dump, []byte("|PENDING\n"))
	running := bytes.Count(dump, []byte("|RUNNING\n"))
	// The numbers docs/walkthrough.md states.
	if jobs != 3016 || pending != 11 || running != 19 {
		t.Fatalf("the dump has %d jobs, %d pending and %d running at dump time; docs/walkthrough.md says 3,016, 11 and 19", jobs, pending, running)
	}
	c := Default()
	c.Trace, c.Cluster, c.TimeZone, c.Format = walkthroughTrace, walkthroughConf, walkthroughZone, "csv"
	out := filepath.Join(t.TempDir(), "run")
	if err := replayInto(t, c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Provenance struct {
			Trace struct {
				Format  string         `yaml:"format"`
				Records int            `yaml:"records"`
				Skipped int            `yaml:"skipped_records"`
				Reasons map[string]int `yaml:"skip_reasons"`
			} `yaml:"trace"`
		} `yaml:"provenance"`
	}
	data, err := os.ReadFile(filepath.Join(out, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	tr := rec.Provenance.Trace
	if tr.Skipped != pending || len(tr.Reasons) != 1 {
		t.Errorf("run.yaml: %d records skipped for %v, want the %d pending at dump time", tr.Skipped, tr.Reasons, pending)
	}
	summary := readSummary(t, filepath.Join(out, "summary.csv"))
	for col, want := range map[string]string{
		"jobs":       strconv.Itoa(jobs - pending),
		"calib_jobs": strconv.Itoa(jobs - pending),
	} {
		if summary[col] != want {
			t.Errorf("summary %s = %q, want %s", col, summary[col], want)
		}
	}
}

// readSummary reads a run directory's one-row summary.csv by column.
func readSummary(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%s: %d lines, want a header and one row", path, len(lines))
	}
	header, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	out := map[string]string{}
	for i, h := range header {
		if i < len(row) {
			out[h] = row[i]
		}
	}
	return out
}
