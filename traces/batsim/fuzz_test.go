package batsim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// addSeeds adds every testdata/batsim file ending in ext to the corpus.
func addSeeds(f *testing.F, ext string) {
	files, err := filepath.Glob(filepath.Join(testdata, "*"+ext))
	if err != nil || len(files) == 0 {
		f.Fatalf("no %s seeds in %s: %v", ext, testdata, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// The fuzz targets check that the readers never panic and that what they
// accept is sound. Run them with a short minimisation time: the default
// (60 s per new input) keeps the workers minimising the rich-coverage
// inputs instead of fuzzing:
//
//	go test ./traces/batsim -run XXX -fuzz FuzzWorkload -fuzztime 30s -fuzzminimizetime 1s
//	go test ./traces/batsim -run XXX -fuzz FuzzPlatform -fuzztime 30s -fuzzminimizetime 1s

func FuzzWorkload(f *testing.F) {
	addSeeds(f, ".json")
	f.Add([]byte(workload(`{"id": "a", "subtime": 1.5, "walltime": -1, "res": 2, "profile": "d5"},
{"id": 2, "subtime": 0, "res": 1, "profile": "par"}`)))
	f.Add([]byte(`{"jobs": [{"id": 1e400, "subtime": 1e300, "res": 1e10, "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 99999999999999999999}}}`))
	f.Add([]byte(`{"jobs": [1, "x", null, {}], "profiles": null, "nb_res": 1.5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			r, err := ParseWorkload("fuzz.json", data, traces.Options{Strict: strict})
			if err != nil {
				if _, ok := err.(*traces.ParseError); !ok {
					t.Fatalf("error %v is %T, not a *traces.ParseError", err, err)
				}
				continue
			}
			if strict && r.Skips().Total != 0 {
				t.Fatal("strict reader skipped records")
			}
			last := sim.Time(-1)
			for _, j := range tracetest.All(t, r) {
				if j.ID == "" || j.Submit < 0 || j.Submit < last || j.Runtime < 0 || j.Tasks < 1 ||
					(j.Walltime != sim.NoWalltime && j.Walltime <= 0) || len(j.Request) != 1 {
					t.Fatalf("bad job %s", formatJob(j))
				}
				last = j.Submit
			}
		}
	})
}

func FuzzPlatform(f *testing.F) {
	addSeeds(f, ".xml")
	f.Add([]byte(platform(`<host id="h" speed="1f, 2f" core="2" pstate="1"><prop id="wattage_per_state" value="1:2, 3:4:5"/><prop id="role" value="compute_node"/></host>
<cluster id="c" prefix="n" suffix="" radical="0-3,7" speed="1f" core="4"><prop id="watt_per_state" value="10:20"/><prop id="watt_off" value="1"/></cluster>
<cabinet id="k" prefix="k" suffix="" radical="1-2" speed="1f" bw="1Bps" lat="0"/>`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Keep the host count small: radicals may ask for up to 2^20 hosts.
		for _, maxHosts := range []int{3, 200} {
			nodes, err := ParsePlatform("fuzz.xml", data, maxHosts)
			if err != nil {
				if _, ok := err.(*traces.ParseError); !ok {
					t.Fatalf("error %v is %T, not a *traces.ParseError", err, err)
				}
				continue
			}
			if len(nodes) == 0 || len(nodes) > maxHosts {
				t.Fatalf("%d nodes with maxHosts %d", len(nodes), maxHosts)
			}
			seen := map[string]bool{}
			for _, n := range nodes {
				if n.Name == "" || seen[n.Name] || n.Name == masterName {
					t.Fatalf("bad or repeated name %q", n.Name)
				}
				seen[n.Name] = true
				if role := n.Attributes["role"]; role == roleMaster || role == roleStorage {
					t.Fatalf("%s has role %s", n.Name, role)
				}
				if n.Power.IdleW < 0 || n.Power.MaxW < 0 || n.Power.Resource != "host" {
					t.Fatalf("%s: power %+v", n.Name, n.Power)
				}
				if c, ok := sim.Get(n.Capacity, "cpu"); !ok || c < sim.Units(1) {
					t.Fatalf("%s: capacity %v", n.Name, n.Capacity)
				}
			}
			if _, err := sim.NewCluster(nodes); err != nil {
				t.Fatalf("sim.NewCluster: %v", err)
			}
		}
	})
}
