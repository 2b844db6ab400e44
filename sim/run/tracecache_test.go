package run

import (
	"context"

	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/traces/formats"
)

// Runs served by the trace cache write the same files as runs that stream
// the trace: tables, summary (but its wall-clock columns) and run.yaml;
// with several runs sharing the cache at once, with random failures and
// checkpoints, and with skipped records.
func TestTraceCacheMatchesStreaming(t *testing.T) {
	cases := []struct {
		name string
		set  func(c *Spec)
	}{
		{"swf-easy", func(c *Spec) {
			c.Trace = "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz" // one record skipped
		}},
		{"swf-nodes-conservative", func(c *Spec) {
			c.Trace, c.SWFModel, c.Backfill = "../../testdata/swf/unsorted.swf", "nodes", "conservative"
		}},
		{"native-failures-checkpoints", func(c *Spec) {
			c.Trace, c.Cluster = "../../testdata/native/jobs.jsonl", "../../testdata/clusters/hetero.yaml"
			c.MTBFs, c.MTTRs, c.CheckpointS, c.Seed = 3600, 600, 300, 7
		}},
		{"batsim", func(c *Spec) {
			c.Trace, c.Platform = "../../testdata/batsim/medium_late_head.json", "../../testdata/batsim/platform_head.xml"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := func(cache *TraceCache, dir string) error {
				c := Default()
				tc.set(&c)
				c.Quiet, c.Check, c.Out = true, true, dir
				_, err := Replay(context.Background(), &c, Options{Traces: cache})
				return err
			}
			streamed := filepath.Join(t.TempDir(), "streamed")
			if err := run(nil, streamed); err != nil {
				t.Fatal(err)
			}
			// Three runs at once share the cache, as sweep workers do: one
			// loads it while the others wait (go test -race watches them).
			cache := NewTraceCache()
			dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "c")}
			errs := make([]error, len(dirs))
			var wg sync.WaitGroup
			for i, dir := range dirs {
				wg.Go(func() { errs[i] = run(cache, dir) })
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			for i, dir := range dirs {
				if len(cache.entries) != 1 || !cache.entries[traceKeyOf(t, cache)].ok {
					t.Fatalf("the trace was not cached")
				}
				// The same files, byte for byte, but the wall-clock columns and
				// run.yaml's provenance (when and how long).
				if err := runcmp.SameRun(streamed, dir); err != nil {
					t.Errorf("run %d from the cache: %v", i+1, err)
				}
			}
		})
	}
}

func traceKeyOf(t *testing.T, cache *TraceCache) formats.Key {
	for k := range cache.entries {
		return k
	}
	t.Fatal("empty cache")
	return formats.Key{}
}

// A strict-mode error in the middle of a trace stops every run served by
// the cache, as it stops a streamed one, with the same message; a trace
// that cannot be opened fails each run with the reader's error.
func TestTraceCacheErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.swf")
	text := "; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 10 0 -1 -1 0 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := func(cache *TraceCache, trace string) error {
		c := Default()
		c.Trace, c.Strict, c.Quiet = trace, true, true
		c.Out = filepath.Join(t.TempDir(), "run")
		_, err := Replay(context.Background(), &c, Options{Traces: cache})
		return err
	}
	want := replay(nil, bad)
	if want == nil || !strings.Contains(want.Error(), "bad.swf:3") {
		t.Fatalf("streamed strict run: %v, want the error of line 3", want)
	}
	cache := NewTraceCache()
	for i := range 2 {
		if got := replay(cache, bad); got == nil || got.Error() != want.Error() || ExitCode(got) != ExitCode(want) {
			t.Errorf("cached run %d: %v (exit %d), want %v (exit %d)", i+1, got, ExitCode(got), want, ExitCode(want))
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.swf")
	for i := range 2 {
		if err := replay(cache, missing); err == nil || !strings.Contains(err.Error(), "missing.swf") || ExitCode(err) != ExitBadInput {
			t.Errorf("missing trace, run %d: %v", i+1, err)
		}
	}
}

// A trace larger than what the cache has room for is streamed by every
// run, and the cache holds nothing of it.
func TestTraceCacheTooLarge(t *testing.T) {
	cache := NewTraceCache()
	cache.limit = 1000 // KTH-SP2 has 28,476 records
	for range 2 {
		c := Default()
		c.Trace, c.Quiet = "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz", true
		c.Out = filepath.Join(t.TempDir(), "run")
		if _, err := Replay(context.Background(), &c, Options{Traces: cache}); err != nil {
			t.Fatal(err)
		}
	}
	if cache.jobs != 0 {
		t.Errorf("the cache holds %d jobs of a trace over its limit", cache.jobs)
	}
}

// Runs that share a cached trace but differ in how jobs checkpoint do not
// see each other's settings: a run with --checkpoint, then one without,
// gives the second the tables of a streamed run without.
func TestTraceCacheKeepsJobsUnchanged(t *testing.T) {
	run := func(cache *TraceCache, checkpoint float64) string {
		c := Default()
		c.Trace = "../../traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz"
		c.MTBFs, c.MTTRs, c.Seed, c.CheckpointS = 30*86400, 3600, 3, checkpoint
		c.Quiet, c.Format = true, "csv"
		c.Out = filepath.Join(t.TempDir(), "run")
		if _, err := Replay(context.Background(), &c, Options{Traces: cache}); err != nil {
			t.Fatal(err)
		}
		return c.Out
	}
	jobs := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	without, with := jobs(run(nil, 0)), jobs(run(nil, 600))
	if with == without {
		t.Fatal("checkpoints change nothing in this scenario; the test would not notice a shared job changed")
	}
	cache := NewTraceCache()
	if got := jobs(run(cache, 600)); got != with {
		t.Error("a cached run with --checkpoint differs from the streamed one")
	}
	if got := jobs(run(cache, 0)); got != without {
		t.Error("a cached run without --checkpoint after one with it differs from the streamed one: the cached jobs were changed")
	}
}

// A Google trace (whose opening also reads the scale option and the
// backfill) is streamed by each run, cached or not, with the same result.
func TestTraceCacheStreamsOtherFormats(t *testing.T) {
	cache := NewTraceCache()
	var tables [2][]byte
	for i := range 2 {
		c := Default()
		c.Trace, c.Quiet, c.Format = "../../testdata/google/2011", true, "csv"
		c.Placement.Set("least-allocated")
		c.Out = filepath.Join(t.TempDir(), "run")
		if _, err := Replay(context.Background(), &c, Options{Traces: cache}); err != nil {
			t.Fatal(err)
		}
		tables[i], _ = os.ReadFile(filepath.Join(c.Out, "jobs.csv"))
	}
	if len(tables[0]) == 0 || !bytes.Equal(tables[0], tables[1]) {
		t.Error("two runs of the Google sample differ")
	}
	for _, e := range cache.entries {
		if e.ok || cache.jobs != 0 {
			t.Errorf("the Google sample was cached (%d jobs)", cache.jobs)
		}
	}
}

func maskedSummary(t *testing.T, dir string) string {
	t.Helper()
	s, err := runcmp.MaskedSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
