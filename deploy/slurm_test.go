package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSlurm puts sbatch, squeue and scancel on PATH: sbatch and scancel log
// their arguments (one call a line) and sbatch prints job ids 100, 101, …;
// squeue prints the file queue (its -r -o %i listing) or, asked about
// pending jobs, the file pending.
type fakeSlurm struct {
	dir string
}

func newFakeSlurm(t *testing.T) *fakeSlurm {
	dir := t.TempDir()
	scripts := map[string]string{
		"sbatch":  "echo \"$*\" >> \"$FAKE/sbatch.log\"\necho $((99 + $(wc -l < \"$FAKE/sbatch.log\")))\n",
		"scancel": "echo \"$*\" >> \"$FAKE/scancel.log\"\n",
		"squeue":  "case \" $* \" in *' -t PENDING '*) cat \"$FAKE/pending\" ;; *) cat \"$FAKE/queue\" ;; esac\n",
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := &fakeSlurm{dir}
	f.set(t, "queue", "")
	f.set(t, "pending", "")
	return f
}

func (f *fakeSlurm) set(t *testing.T, name, content string) {
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// calls is the lines a fake command logged.
func (f *fakeSlurm) calls(name string) []string {
	data, _ := os.ReadFile(filepath.Join(f.dir, name+".log"))
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// submit runs slurm/submit.sh in dir with the fakes first on PATH.
func (f *fakeSlurm) submit(dir string, args ...string) (string, error) {
	script, _ := filepath.Abs(filepath.Join("slurm", "submit.sh"))
	c := exec.Command("bash", append([]string{script}, args...)...)
	c.Dir = dir
	c.Env = append(os.Environ(), "PATH="+f.dir+":"+os.Getenv("PATH"), "FAKE="+f.dir)
	out, err := c.CombinedOutput()
	return string(out), err
}

// A sweep submitted as --array=2-8:2 (shards 0…3 as tasks 2, 4, 6, 8) whose
// task 4 failed while 6 and 8 still run: --retry 4 submits shard 1 of 4 as
// task 4 with the original options, cancels the pending merge and queues a
// new one afterok on the retry and the still-queued tasks; a second retry
// keeps the first's job in the new merge's dependency while it is queued.
func TestSubmitRetry(t *testing.T) {
	f := newFakeSlurm(t)
	work := t.TempDir()
	slurmDir, _ := filepath.Abs("slurm")
	if out, err := f.submit(work, "exp.yaml", "out", "--mem=1G", "--array=2-8:2", "--time=10:00"); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	want := []string{
		"--parsable --mem=1G --time=10:00 --array=2-8:2 " + slurmDir + "/sweep.sbatch exp.yaml out",
		"--parsable --dependency=afterok:100 " + slurmDir + "/merge.sbatch out",
	}
	if got := f.calls("sbatch"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sbatch calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	f.set(t, "queue", "100_6\n100_8\n101\n")
	f.set(t, "pending", "101\n")
	out, err := f.submit(t.TempDir(), "--retry", "4", filepath.Join(work, "out"))
	if err != nil {
		t.Fatalf("retry: %v\n%s", err, out)
	}
	abs := filepath.Join(work, "out")
	want = append(want,
		"--parsable --mem=1G --time=10:00 --array=4 "+slurmDir+"/sweep.sbatch "+filepath.Join(work, "exp.yaml")+" "+abs+" 1/4",
		"--parsable --dependency=afterok:102:100_6:100_8 "+slurmDir+"/merge.sbatch "+abs,
	)
	if got := f.calls("sbatch"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sbatch calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := f.calls("scancel"); len(got) != 1 || got[0] != "101" {
		t.Errorf("scancel calls %q, want the pending merge 101", got)
	}

	// Task 8 fails too, while the retry of 4 (job 102, a one-task array) runs.
	f.set(t, "queue", "102_4\n103\n")
	f.set(t, "pending", "103\n")
	if out, err := f.submit(work, "--retry", "8", "out"); err != nil {
		t.Fatalf("second retry: %v\n%s", err, out)
	}
	got := f.calls("sbatch")
	if len(got) != 6 || !strings.HasSuffix(got[4], " 3/4") || !strings.Contains(got[4], "--array=8 ") ||
		!strings.HasPrefix(got[5], "--parsable --dependency=afterok:104:102_4 ") {
		t.Errorf("second retry's sbatch calls:\n%s", strings.Join(got[4:], "\n"))
	}
	if got := f.calls("scancel"); len(got) != 2 || got[1] != "103" {
		t.Errorf("scancel calls %q, want the pending merge 103 last", got)
	}
	state, err := os.ReadFile(filepath.Join(abs, "slurm.env"))
	if err != nil || !strings.Contains(string(state), `retries=102\ 104`) || !strings.Contains(string(state), "merge=105") {
		t.Errorf("slurm.env: %v\n%s", err, state)
	}
}

// Refused with exit status 2 and a message, before any job is submitted: an
// array of a list of ids (they would not number the shards), a retry of a
// task outside the array or between its steps, a retry of a task still
// queued, a retry without a submission to read.
func TestSubmitRefuses(t *testing.T) {
	f := newFakeSlurm(t)
	work := t.TempDir()
	if out, err := f.submit(work, "exp.yaml", "out", "--array=0-6:3"); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	f.set(t, "queue", "100_3\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exp.yaml", "out2", "--array=0,3,5"}, "--array=0,3,5: want MIN-MAX[:STEP][%LIMIT] or one id"},
		{[]string{"exp.yaml", "out2", "-a", "5-2"}, "--array=5-2: want MIN ≤ MAX"},
		{[]string{"--retry", "9", "out"}, "--retry 9: not a task of the array (ids 0, 3, … 6)"},
		{[]string{"--retry", "4", "out"}, "--retry 4: not a task of the array"},
		{[]string{"--retry", "3", "out"}, "--retry 3: 100_3 is still queued"},
		{[]string{"--retry", "x", "out"}, "--retry x: want an array task id"},
		{[]string{"--retry", "0", "elsewhere"}, "elsewhere/slurm.env: not found"},
	} {
		before := len(f.calls("sbatch"))
		out, err := f.submit(work, c.args...)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, c.want) {
			t.Errorf("submit.sh %q: %v, %q; want exit status 2 and %q", c.args, err, out, c.want)
		}
		if after := len(f.calls("sbatch")); after != before {
			t.Errorf("submit.sh %q submitted %d jobs", c.args, after-before)
		}
	}
}

// With no --array option, the array is sweep.sbatch's own #SBATCH line,
// and a retry numbers the shards by it.
func TestSubmitDefaultArray(t *testing.T) {
	f := newFakeSlurm(t)
	work := t.TempDir()
	if out, err := f.submit(work, "exp.yaml", "out"); err != nil {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join("slurm", "sweep.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n#SBATCH --array=0-7\n") {
		t.Fatal("sweep.sbatch's array is no longer 0-7: update this test")
	}
	if out, err := f.submit(work, "--retry", "7", "out"); err != nil {
		t.Fatalf("retry: %v\n%s", err, out)
	}
	calls := f.calls("sbatch")
	if len(calls) != 4 || !strings.Contains(calls[0], "--array=0-7 ") || !strings.HasSuffix(calls[2], " 7/8") {
		t.Errorf("sbatch calls:\n%s", strings.Join(calls, "\n"))
	}
}
