package google

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// writeSynthetic2011 writes a 2011-layout trace of jobs × 10 tasks on 1,000
// machines: each task is submitted (a job every 2 s), waits 0–60 s, runs
// 10 s–4 h (so some outlast the look-ahead), and finishes; 1 % of them run
// past the end, and a job whose tasks all finish finishes with its last.
// task_events is cut into 4 time-ordered parts.
func writeSynthetic2011(tb testing.TB, dir string, jobs int) {
	rng := rand.New(rand.NewPCG(1, 2))
	type ev struct {
		at   int64
		line string
	}
	var evs []ev
	var jobEvs []ev
	end := int64(jobs)*2e6 + 600e6
	for j := 0; j < jobs; j++ {
		submit := 600e6 + int64(j)*2e6
		jobEvs = append(jobEvs, ev{submit, fmt.Sprintf("%d,,%d,0,user%d,1,n,l", submit, j+1, j%50)})
		last, open := int64(0), false
		for i := 0; i < 10; i++ {
			start := submit + rng.Int64N(60e6)
			runtime := 10e6 + rng.Int64N(4*3600e6)
			req := fmt.Sprintf("user%d,%d,%d,%.5f,%.5f,0.0001,0", j%50, j%4, j%12, 0.01+rng.Float64()*0.05, 0.01+rng.Float64()*0.05)
			evs = append(evs, ev{submit, fmt.Sprintf("%d,,%d,%d,,0,%s", submit, j+1, i, req)})
			evs = append(evs, ev{start, fmt.Sprintf("%d,,%d,%d,%d,1,%s", start, j+1, i, rng.IntN(1000), req)})
			if rng.IntN(100) > 0 && start+runtime < end {
				evs = append(evs, ev{start + runtime, fmt.Sprintf("%d,,%d,%d,,4,%s", start+runtime, j+1, i, req)})
				last = max(last, start+runtime)
			} else {
				open = true
			}
		}
		if !open { // the job finishes with its last task
			jobEvs = append(jobEvs, ev{last, fmt.Sprintf("%d,,%d,4,user%d,1,n,l", last, j+1, j%50)})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].at < evs[b].at })
	sort.SliceStable(jobEvs, func(a, b int) bool { return jobEvs[a].at < jobEvs[b].at })
	var jobLines []string
	for _, e := range jobEvs {
		jobLines = append(jobLines, e.line)
	}
	write := func(path string, lines func(w io.Writer)) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			tb.Fatal(err)
		}
		w := bufio.NewWriter(f)
		lines(w)
		w.Flush()
		f.Close()
	}
	for p := 0; p < 4; p++ {
		lo, hi := len(evs)*p/4, len(evs)*(p+1)/4
		write(filepath.Join(dir, "task_events", fmt.Sprintf("part-%05d-of-00004.csv", p)), func(w io.Writer) {
			for _, e := range evs[lo:hi] {
				fmt.Fprintln(w, e.line)
			}
		})
	}
	write(filepath.Join(dir, "job_events", "part-00000-of-00001.csv"), func(w io.Writer) {
		for _, l := range jobLines {
			fmt.Fprintln(w, l)
		}
	})
	write(filepath.Join(dir, "machine_events", "part-00000-of-00001.csv"), func(w io.Writer) {
		for m := 0; m < 1000; m++ {
			fmt.Fprintf(w, "0,%d,0,P,0.5,0.5\n", m)
		}
	})
}

// BenchmarkRead2011 reads a synthetic trace of 20,000 jobs × 10 tasks (both
// passes) and reports tasks/s. SCHEDSIM_GOOGLE_JOBS sets the job count;
// SCHEDSIM_GOOGLE_DIR keeps the trace there (made when missing), so that
// a second run measures the reader's memory alone.
func BenchmarkRead2011(b *testing.B) {
	jobs := 20000
	if s := os.Getenv("SCHEDSIM_GOOGLE_JOBS"); s != "" {
		fmt.Sscan(s, &jobs)
	}
	dir := os.Getenv("SCHEDSIM_GOOGLE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(dir, "task_events")); err != nil {
		writeSynthetic2011(b, dir, jobs)
	}
	b.ResetTimer()
	cpu0 := cpuSeconds()
	tasks := 0
	for range b.N {
		r, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for j := range tracetest.Jobs(b, r) {
			_ = j.Runtime + sim.Time(j.Tasks)
			tasks++
		}
		r.Close()
	}
	b.ReportMetric(float64(tasks)/b.Elapsed().Seconds(), "tasks/s")
	b.ReportMetric(float64(tasks)/(cpuSeconds()-cpu0), "tasks/cpu-s")
}

// cpuSeconds is the process's user + system CPU time: on a machine shared
// with other work it measures the reader better than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
