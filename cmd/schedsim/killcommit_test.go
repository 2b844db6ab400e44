package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A replay --overwrite killed (SIGKILL) at each step of replacing the old
// run leaves --out holding the whole old run or the whole new one, never
// nothing nor a mix; the next replay for that --out restores a run a
// killed commit had moved aside and removes the dead process's staging
// directories. The kill points are those of run/rundir.go, reached through
// its SCHEDSIM_TEST_KILL_AT hook; SCHEDSIM_TEST_NO_EXCHANGE takes the
// two-rename path that systems without an atomic exchange use.
func TestOverwriteKilledAtEachRename(t *testing.T) {
	bin := buildSchedsim(t)
	trace := filepath.Join("..", "..", "testdata", "native", "jobs.jsonl")
	cluster := filepath.Join("..", "..", "testdata", "clusters", "small.yaml")
	replay := func(out string, env []string, args ...string) (int, string) {
		c := exec.Command(bin, append([]string{"replay", trace, "--cluster", cluster, "--out", out, "--quiet"}, args...)...)
		c.Env = append(os.Environ(), env...)
		b, err := c.CombinedOutput()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, string(b)
		case errors.As(err, &ee):
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return -int(ws.Signal()), string(b)
			}
			return ee.ExitCode(), string(b)
		}
		t.Fatalf("replay: %v", err)
		return 0, ""
	}
	files := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	oldRun := []string{"jobs.parquet", "nodes.parquet", "run.yaml", "summary.csv", "summary.parquet", "tenants.parquet", "timeseries.parquet"}
	newRun := []string{"jobs.csv", "nodes.csv", "run.yaml", "summary.csv", "tenants.csv", "timeseries.csv"}
	for _, tc := range []struct {
		point, env string
		want       []string // what --out holds right after the kill
	}{
		{"commit", "", oldRun},
		{"exchanged", "", newRun},
		{"commit", "SCHEDSIM_TEST_NO_EXCHANGE=1", oldRun},
		{"moved-aside", "SCHEDSIM_TEST_NO_EXCHANGE=1", nil}, // restored by the next run
		{"renamed", "SCHEDSIM_TEST_NO_EXCHANGE=1", newRun},
	} {
		t.Run(tc.point+tc.env, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "run")
			if code, msg := replay(out, nil); code != 0 {
				t.Fatalf("first replay: exit %d\n%s", code, msg)
			}
			env := []string{"SCHEDSIM_TEST_KILL_AT=" + tc.point, tc.env}
			if code, msg := replay(out, env, "--overwrite", "--format", "csv"); code != -int(syscall.SIGKILL) {
				t.Fatalf("the --overwrite replay was not killed: exit %d\n%s", code, msg)
			}
			if got := files(out); !slices.Equal(got, tc.want) {
				t.Fatalf("after the kill --out holds %v, want %v", got, tc.want)
			}
			// The next command for --out repairs first: the refusal to
			// overwrite without --overwrite finds a whole run there.
			code, msg := replay(out, nil)
			if code != 2 || !strings.Contains(msg, "holds an earlier run") {
				t.Errorf("replay without --overwrite after the kill: exit %d\n%s", code, msg)
			}
			want := tc.want
			if want == nil {
				want = oldRun
			}
			if got := files(out); !slices.Equal(got, want) {
				t.Errorf("after recovery --out holds %v, want %v", got, want)
			}
			if left := files(parent); !slices.Equal(left, []string{"run"}) {
				t.Errorf("left beside --out: %v", left)
			}
			if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o755&^umask(t) {
				t.Errorf("--out mode: %v %v", fi.Mode(), err)
			}
			if fi, err := os.Stat(filepath.Join(out, "run.yaml")); err != nil || fi.Mode().Perm() != 0o666&^umask(t) {
				t.Errorf("run.yaml mode: %v %v", fi.Mode(), err)
			}
		})
	}
}

// umask is the process's file mode creation mask.
func umask(t *testing.T) os.FileMode {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			var m uint32
			for _, c := range strings.TrimSpace(v) {
				m = m*8 + uint32(c-'0')
			}
			return os.FileMode(m)
		}
	}
	t.Skip("no Umask line")
	return 0
}
