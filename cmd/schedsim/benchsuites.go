package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim/run"
)

// benchPlacement prints placement throughput, measured in process.
func benchPlacement(out io.Writer) error {
	fmt.Fprintln(out, "| cluster | search | placements/s |")
	fmt.Fprintln(out, "|---|---|---:|")
	for _, c := range []struct {
		name  string
		limit placement.Limit
		count int
	}{{"full scan", 0, 3000}, {"candidate limit (auto: 14)", placement.Auto, 100000}} {
		rate, err := placement.Throughput(10000, c.limit, c.count)
		if err != nil {
			return run.Failed(err)
		}
		fmt.Fprintf(out, "| 10,000 nodes, 70%% used | %s | %.0f |\n", c.name, rate)
	}
	return nil
}

// benchOpenb times the openb experiment in child processes.
func benchOpenb(out io.Writer) error {
	self, tmp, err := childScratch("openb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(out, "| openb default trace | runs | wall s | peak MiB |")
	fmt.Fprintln(out, "|---|---:|---:|---:|")
	for _, c := range []struct {
		name string
		runs int
		args []string
	}{
		{"fgd, seed 42", 1, []string{"--policies", "fgd", "--seeds", "42", "--workers", "1"}},
		{"six policies × seeds 42–51", 60, nil},
	} {
		args := append([]string{"openb", "--quiet", "--out", filepath.Join(tmp, "out")}, c.args...)
		t, err := timeChild(self, args...)
		wall, rss := t.wall, t.rssMiB
		if err != nil {
			return run.Failed(fmt.Errorf("openb %s: %w", c.name, err))
		}
		fmt.Fprintf(out, "| %s | %d | %.2f | %.0f |\n", c.name, c.runs, wall, rss)
	}
	return nil
}

// childScratch returns this program's path, to run children with, and a
// fresh scratch directory for suite's files, which the caller removes.
func childScratch(suite string) (self, tmp string, err error) {
	if self, err = os.Executable(); err != nil {
		return "", "", run.Failed(err)
	}
	if tmp, err = os.MkdirTemp("", "schedsim-bench-"+suite+"-"); err != nil {
		return "", "", run.Failed(err)
	}
	return self, tmp, nil
}

// childTimes are what a child process cost: wall and CPU (user + system)
// seconds, and its peak memory (max RSS) in MiB.
type childTimes struct{ wall, cpu, rssMiB float64 }

// timeChild runs a child process and returns what it cost. The child's
// notices (skipped records) are kept out of the table and shown only when
// it fails.
func timeChild(path string, args ...string) (childTimes, error) {
	c := exec.Command(path, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	start := time.Now()
	if err := c.Run(); err != nil {
		os.Stderr.Write(stderr.Bytes())
		return childTimes{}, err
	}
	t := childTimes{wall: time.Since(start).Seconds()}
	t.cpu = (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds()
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		t.rssMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return t, nil
}
