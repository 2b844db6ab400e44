package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim/experiment"
)

const deployDir = "../../deploy"

// The Kubernetes manifest parses; the Indexed Job's completions, its
// SCHEDSIM_SHARDS and the merge's SHARDS agree; both Jobs mount the one
// claim; the experiment in the ConfigMap is valid.
func TestKubernetesManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(deployDir, "kubernetes", "sweep.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type container struct {
		Image   string
		Args    []string
		Command []string
		Env     []struct{ Name, Value string }
	}
	type podSpec struct {
		InitContainers []container `yaml:"initContainers"`
		Containers     []container
		Volumes        []struct {
			Name                  string
			PersistentVolumeClaim *struct {
				ClaimName string `yaml:"claimName"`
			} `yaml:"persistentVolumeClaim"`
		}
	}
	type object struct {
		Kind     string
		Metadata struct{ Name string }
		Data     map[string]string
		Spec     struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int
			Parallelism    int
			Template       struct{ Spec podSpec }
		}
	}
	byName := map[string]object{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var o object
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		byName[o.Kind+"/"+o.Metadata.Name] = o
	}
	env := func(c container, name string) string {
		for _, e := range c.Env {
			if e.Name == name {
				return e.Value
			}
		}
		return ""
	}
	claims := func(p podSpec) []string {
		var out []string
		for _, v := range p.Volumes {
			if v.PersistentVolumeClaim != nil {
				out = append(out, v.PersistentVolumeClaim.ClaimName)
			}
		}
		return out
	}
	sweep, ok := byName["Job/schedsim-sweep"]
	if !ok {
		t.Fatalf("no Job schedsim-sweep: %v", byName)
	}
	merge := byName["Job/schedsim-merge"]
	if sweep.Spec.CompletionMode != "Indexed" || sweep.Spec.Completions < 2 || sweep.Spec.Parallelism < 1 {
		t.Errorf("sweep Job: %+v", sweep.Spec)
	}
	sc := sweep.Spec.Template.Spec.Containers[0]
	shards := env(sc, shardsEnv)
	if shards != strconv.Itoa(sweep.Spec.Completions) || env(merge.Spec.Template.Spec.InitContainers[0], "SHARDS") != shards {
		t.Errorf("completions %d, %s %q, merge SHARDS %q: want all equal", sweep.Spec.Completions, shardsEnv, shards,
			env(merge.Spec.Template.Spec.InitContainers[0], "SHARDS"))
	}
	if !slices.Equal(sc.Args[:1], []string{"sweep"}) || !slices.Contains(sc.Args, "--out") {
		t.Errorf("sweep args %v", sc.Args)
	}
	if mc := merge.Spec.Template.Spec.Containers[0]; !slices.Equal(mc.Args, []string{"merge", sc.Args[slices.Index(sc.Args, "--out")+1]}) {
		t.Errorf("merge args %v, want merge of the sweep's --out", mc.Args)
	}
	claim := byName["PersistentVolumeClaim/schedsim-data"].Metadata.Name
	if !slices.Equal(claims(sweep.Spec.Template.Spec), []string{claim}) || !slices.Equal(claims(merge.Spec.Template.Spec), []string{claim}) {
		t.Errorf("claims: sweep %v, merge %v, want %s", claims(sweep.Spec.Template.Spec), claims(merge.Spec.Template.Spec), claim)
	}
	spec, err := experiment.Parse([]byte(byName["ConfigMap/schedsim-experiment"].Data["experiment.yaml"]), "/config/experiment.yaml")
	if err != nil {
		t.Fatalf("the ConfigMap's experiment: %v", err)
	}
	if runs, _ := spec.Runs(); len(runs) < sweep.Spec.Completions {
		t.Errorf("%d runs for %d shards", len(runs), sweep.Spec.Completions)
	}
}

// The Slurm scripts, run as the array's two tasks and then the merge, give
// the single-process summary; submit.sh queues the merge afterok on the
// array (sbatch faked).
func TestSlurmScripts(t *testing.T) {
	needLong(t) // the 16-run lattice sweep twice over, and its own build
	bin := buildSchedsim(t)
	spec := latticeSpec(t)
	whole := t.TempDir()
	if out, err := exec.Command(bin, "sweep", spec, "--out", whole, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	dir := t.TempDir()
	script := func(name string, env []string, args ...string) {
		t.Helper()
		c := exec.Command("bash", append([]string{filepath.Join(deployDir, "slurm", name)}, args...)...)
		c.Env = append(append(os.Environ(), "SCHEDSIM="+bin), env...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, env, err, out)
		}
	}
	for _, id := range []string{"0", "1"} {
		script("sweep.sbatch", []string{"SLURM_ARRAY_TASK_ID=" + id, "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=2", "SLURM_CPUS_PER_TASK=1"}, spec, dir)
	}
	script("merge.sbatch", nil, dir)
	sameSummaries(t, dir, whole)

	// A fake sbatch logs its arguments and prints job ids 100, 101.
	fake := t.TempDir()
	log := filepath.Join(fake, "log")
	sbatch := "#!/bin/sh\necho \"$@\" >> " + log + "\nn=$(wc -l < " + log + ")\necho $((99 + n))\n"
	if err := os.WriteFile(filepath.Join(fake, "sbatch"), []byte(sbatch), 0o755); err != nil {
		t.Fatal(err)
	}
	c := exec.Command("bash", filepath.Join(deployDir, "slurm", "submit.sh"), spec, dir, "--array=0-3")
	c.Env = append(os.Environ(), "PATH="+fake+":"+os.Getenv("PATH"))
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("submit.sh: %v\n%s", err, out)
	}
	calls, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "--array=0-3") || !strings.Contains(lines[0], "sweep.sbatch "+spec+" "+dir) ||
		!strings.Contains(lines[1], "--dependency=afterok:100") || !strings.Contains(lines[1], "merge.sbatch "+dir) {
		t.Errorf("sbatch calls:\n%s", calls)
	}
}
