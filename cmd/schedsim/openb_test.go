package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

const openbData = "../../testdata/openb"

// TestOpenbByteIdentical: the same inputs and seeds give the same table
// and files, byte for byte, with one worker or several.
func TestOpenbByteIdentical(t *testing.T) {
	var outs []string
	var files [][]byte
	for i, workers := range []string{"1", "3", "1"} {
		dir := filepath.Join(t.TempDir(), "run")
		stdout, err := execute(t, "openb", "--nodes", filepath.Join(openbData, "nodes.csv"), "--pods", filepath.Join(openbData, "pods.csv"),
			"--seeds", "1-3,9", "--workers", workers, "--out", dir)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, strings.ReplaceAll(stdout, dir, "DIR"))
		var all []byte
		for _, f := range []string{"openb_alloc.csv", "openb_summary.csv"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		files = append(files, all)
		if i > 0 && (outs[i] != outs[0] || !bytes.Equal(files[i], files[0])) {
			t.Fatalf("run %d differs from run 0:\n%s\n---\n%s", i, outs[i], outs[0])
		}
	}
	for _, want := range []string{"14 nodes, 74 GPUs, 70 pods", "fgd", "best-fit", "± "} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("summary lacks %q:\n%s", want, outs[0])
		}
	}
	// 6 policies × 4 seeds × 131 steps (0–130 %) + the header.
	if n := bytes.Count(files[0], []byte("\n")); n != 6*4*131+1+7 {
		t.Errorf("%d lines in the two CSVs", n)
	}
}

func TestOpenbBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "pods.csv")
	if err := os.WriteFile(bad, []byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,100,10,2,500\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--policies", "worst-fit"},
		{"--seeds", "5-1"},
		{"--ties", "sometimes"},
		{"--pods", bad},
	} {
		args = append([]string{"openb", "--quiet", "--nodes", filepath.Join(openbData, "nodes.csv"), "--pods", filepath.Join(openbData, "pods.csv"),
			"--out", filepath.Join(dir, "out")}, args...)
		_, err := execute(t, args...)
		if exitCode(err) != run.ExitBadInput {
			t.Errorf("%v: exit %d (%v), want %d", args, exitCode(err), err, run.ExitBadInput)
		}
		if args[len(args)-1] == bad && (err == nil || !strings.Contains(err.Error(), "pods.csv:2: field gpu_milli")) {
			t.Errorf("error does not name file, line and field: %v", err)
		}
	}
}
