package native

import (
	"bytes"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// traitsWant is what testdata/traits.{jsonl,csv} hold.
var traitsWant = []sim.Job{
	{ID: "1", Submit: 0, Runtime: 60 * sim.Second, Walltime: sim.NoWalltime, Tasks: 1, Gang: true,
		Request: []sim.Quantity{{Resource: "cpu", Amount: 1000}}},
	{ID: "2", Submit: 5 * sim.Second, Runtime: 60 * sim.Second, Walltime: sim.NoWalltime, Tasks: 3, Gang: true,
		Request: []sim.Quantity{{Resource: "cpu", Amount: 2000}, {Resource: "mem", Amount: 512000}},
		Traits: &sim.Traits{
			Immunities:     []string{"gpu"},
			AversionGroups: []string{"web", "front"},
			// File order, not sorted.
			Selector:    []sim.Label{{Key: "zone", Value: "b"}, {Key: "disk", Value: "ssd"}},
			Tolerations: []sim.Toleration{{Key: "dedicated", Value: "ml", Effect: "NoSchedule"}, {Key: "spot"}},
			Labels:      []sim.Label{{Key: "team", Value: "search"}, {Key: "tier", Value: ""}},
		}},
	{ID: "3", Submit: 10 * sim.Second, Runtime: 30 * sim.Second, Walltime: sim.NoWalltime, Tasks: 1, Gang: true,
		Traits: &sim.Traits{Constraints: []sim.Constraint{
			{Kind: "exclusive-host"},
			{Kind: "host-attribute", Attribute: "rack", Value: "r1", Soft: true},
			{Kind: "unique-attribute", Attribute: "zone"},
			{Kind: "balanced-attribute", Attribute: "zone", Groups: 3},
		}}},
	// An empty list and a null object are absent.
	{ID: "4", Submit: 20 * sim.Second, Runtime: 1 * sim.Second, Walltime: sim.NoWalltime, Tasks: 1, Gang: true,
		Traits: &sim.Traits{Architecture: "aarch64", MemberGroup: "arm", Project: "default"}},
}

func TestTraitsSample(t *testing.T) {
	for _, name := range []string{"traits.jsonl", "traits.csv"} {
		t.Run(name, func(t *testing.T) {
			jobs := openAll(t, filepath.Join("testdata", name), traces.Options{Strict: true})
			if len(jobs) != len(traitsWant) {
				t.Fatalf("%d jobs, want %d", len(jobs), len(traitsWant))
			}
			for i := range jobs {
				if !reflect.DeepEqual(*jobs[i], traitsWant[i]) {
					t.Errorf("job %d:\n got %s\nwant %s", i, dump(jobs[i]), dump(&traitsWant[i]))
				}
			}
		})
	}
}

// TestNoTraitsNil: a job without trait fields has Traits == nil, as do
// trait fields that are all empty.
func TestNoTraitsNil(t *testing.T) {
	in := goodJSONL + `{"id":"b","submit_s":1000,"runtime_s":1,"immunities":[],"selector":{},"tolerations":null,"constraints":[],"architecture":"","labels":{"a":null}}` + "\n"
	jobs, err := tracetest.Drain(NewJSONLReader(strings.NewReader(in), "t.jsonl", traces.Options{Strict: true}))
	if err != nil || len(jobs) != 2 {
		t.Fatal(len(jobs), err)
	}
	for _, j := range jobs {
		if j.Traits != nil {
			t.Errorf("%s: Traits %+v, want nil", j.ID, *j.Traits)
		}
	}
	in = "id,submit_s,runtime_s,immunities,selector,architecture,constraints\nok,1000,1,[], {} ,,null\n"
	jobs, err = tracetest.Drain(NewCSVReader(strings.NewReader(in), "t.csv", traces.Options{Strict: true}))
	if err != nil || len(jobs) != 1 || jobs[0].Traits != nil {
		t.Fatal(len(jobs), err)
	}
}

// traitJobs are jobs with every trait field, with text that needs escaping
// in JSON and quoting in CSV.
func traitJobs() []*sim.Job {
	return []*sim.Job{
		{ID: "plain", Submit: 0, Runtime: 1, Walltime: sim.NoWalltime, Tasks: 1, Gang: true},
		// gang: false with 4 tasks reads back as independent tasks.
		{ID: "all", Submit: 1, Runtime: 2, Walltime: 3, Tasks: 4, Priority: -2, User: "u", IndependentTasks: true,
			Request: []sim.Quantity{{Resource: "cpu", Amount: 1500}},
			Traits: &sim.Traits{
				Immunities:     []string{"gpu", "ib, \"quoted\""},
				AversionGroups: []string{"g1", "é\n\t"},
				Selector:       []sim.Label{{Key: "z", Value: "1"}, {Key: "a", Value: ""}, {Key: "m\"x", Value: "y,z"}},
				Tolerations:    []sim.Toleration{{Key: "k"}, {Key: "k2", Value: "v"}, {Key: "k3", Effect: "PreferNoSchedule"}},
				Constraints: []sim.Constraint{
					{Kind: "balanced-attribute", Attribute: "zone", Groups: 2, Soft: true},
					{Kind: "host-attribute", Attribute: "arch", Value: "x86_64"},
					{Kind: "unique-attribute"},
					{Kind: "exclusive-host", Value: "ignored but kept", Groups: -1},
				},
				Architecture: "x86_64",
				MemberGroup:  "grp",
				Project:      "proj, with comma",
				Labels:       []sim.Label{{Key: "b", Value: "2"}, {Key: "a", Value: "1"}},
			}},
		{ID: "some", Submit: 2, Runtime: 2, Walltime: sim.NoWalltime, Tasks: 1,
			Traits: &sim.Traits{Project: "p"}},
	}
}

// TestTraitsRoundTrip: reader(writer(jobs)) == jobs, every field, every
// encoding.
func TestTraitsRoundTrip(t *testing.T) {
	jobs := traitJobs()
	roundTrip(t, jobs, func(name string, back []*sim.Job) {
		if len(back) != len(jobs) {
			t.Fatalf("%s: %d jobs", name, len(back))
		}
		for i := range jobs {
			if !reflect.DeepEqual(back[i], jobs[i]) {
				t.Errorf("%s: job %d:\n got %s\nwant %s", name, i, dump(back[i]), dump(jobs[i]))
			}
		}
	})
	// The sample files round-trip too.
	for _, file := range []string{"traits.jsonl", "traits.csv"} {
		jobs := openAll(t, filepath.Join("testdata", file), traces.Options{Strict: true})
		roundTrip(t, jobs, func(name string, back []*sim.Job) {
			if !reflect.DeepEqual(back, jobs) {
				t.Errorf("%s as %s:\n got %s\nwant %s", file, name, dumpAll(back), dumpAll(jobs))
			}
		})
	}
}

func TestWriteTraitsShape(t *testing.T) {
	j := &sim.Job{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Gang: true, Traits: &sim.Traits{
		Immunities:  []string{"gpu"},
		Selector:    []sim.Label{{Key: "zone", Value: "b"}},
		Tolerations: []sim.Toleration{{Key: "k", Effect: "NoSchedule"}},
		Constraints: []sim.Constraint{{Kind: "balanced-attribute", Attribute: "zone", Groups: 3, Soft: true}},
		Project:     "p",
	}}
	got, err := AppendJSONL(nil, j)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","submit_s":0,"runtime_s":0,"tasks":1,"immunities":["gpu"],"selector":{"zone":"b"},` +
		`"tolerations":[{"key":"k","effect":"NoSchedule"}],` +
		`"constraints":[{"kind":"balanced-attribute","attribute":"zone","groups":3,"soft":true}],"project":"p"}` + "\n"
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, []*sim.Job{j}); err != nil {
		t.Fatal(err)
	}
	wantCSV := "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang,immunities,selector,tolerations,constraints,project\n" +
		`a,0,0,,1,,,,,0,true,"[""gpu""]","{""zone"":""b""}","[{""key"":""k"",""effect"":""NoSchedule""}]",` +
		`"[{""kind"":""balanced-attribute"",""attribute"":""zone"",""groups"":3,""soft"":true}]",p` + "\n"
	if b.String() != wantCSV {
		t.Errorf("csv:\n got %s\nwant %s", b.String(), wantCSV)
	}
	// A trace without traits has no trait columns.
	b.Reset()
	if err := WriteCSV(&b, []*sim.Job{{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Traits: &sim.Traits{}}}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "id,submit_s,runtime_s,walltime_s,tasks,user,group,queue,partition,priority,gang\na,0,0,,1,,,,,0,false\n" {
		t.Errorf("csv without traits: %s", got)
	}
}

func TestWriterRejectsTraits(t *testing.T) {
	for _, c := range []struct {
		traits sim.Traits
		want   string
	}{
		{sim.Traits{Immunities: []string{"a", ""}}, `job "a": immunities[1]: must not be empty`},
		{sim.Traits{AversionGroups: []string{""}}, `job "a": aversion_groups[0]: must not be empty`},
		{sim.Traits{Selector: []sim.Label{{Key: "", Value: "x"}}}, `job "a": selector.: key must not be empty`},
		{sim.Traits{Labels: []sim.Label{{Key: "k"}, {Key: "k"}}}, `job "a": labels.k: given twice`},
		{sim.Traits{Tolerations: []sim.Toleration{{Value: "v"}}}, `job "a": tolerations[0].key: must not be empty`},
		{sim.Traits{Tolerations: []sim.Toleration{{Key: "k", Effect: "NoExecute"}}}, `job "a": tolerations[0].effect: must be NoSchedule or PreferNoSchedule`},
		{sim.Traits{Constraints: []sim.Constraint{{Kind: "x"}}},
			`job "a": constraints[0].kind: unknown constraint "x" (known: exclusive-host, host-attribute, unique-attribute, balanced-attribute)`},
		{sim.Traits{Constraints: []sim.Constraint{{Kind: "exclusive-host"}, {Kind: "host-attribute"}}},
			`job "a": constraints[1].attribute: host-attribute needs an attribute`},
		{sim.Traits{Constraints: []sim.Constraint{{Kind: "balanced-attribute", Attribute: "z", Groups: -1}}},
			`job "a": constraints[0].groups: balanced-attribute: groups must be ≥ 0`},
	} {
		j := sim.Job{ID: "a", Walltime: sim.NoWalltime, Tasks: 1, Traits: &c.traits}
		for _, write := range []func(io.Writer, []*sim.Job) error{WriteCSV, WriteJSONL} {
			if err := write(io.Discard, []*sim.Job{&j}); err == nil || err.Error() != c.want {
				t.Errorf("got %v, want %s", err, c.want)
			}
		}
	}
}

// traitSeeds are good records with traits, for the fuzz targets.
var traitSeeds = []string{
	`{"id":"t","submit_s":0,"runtime_s":1,"immunities":["gpu"],"aversion_groups":["a","b"],"selector":{"zone":"b","disk":"ssd"},"labels":{"x":"1"}}`,
	`{"id":"t","submit_s":0,"runtime_s":1,"tolerations":[{"key":"k","value":"v","effect":"NoSchedule"},{"key":"s","value":null}],"architecture":"aarch64","member_group":"g","project":"p"}`,
	`{"id":"t","submit_s":0,"runtime_s":1,"constraints":[{"kind":"exclusive-host"},{"kind":"host-attribute","attribute":"rack","value":"r1","soft":true},{"kind":"balanced-attribute","attribute":"zone","groups":3}]}`,
	`{"id":"t","submit_s":0,"runtime_s":1,"immunities":[],"selector":{},"constraints":null,"labels":{"a":null,"\u00e9":"\ud83d\ude00"}}`,
}

// traitSeedsCSV are the same in CSV.
var traitSeedsCSV = []string{
	"id,submit_s,runtime_s,immunities,aversion_groups,selector,labels\nt,0,1,\"[\"\"gpu\"\"]\",\"[\"\"a\"\",\"\"b\"\"]\",\"{\"\"zone\"\":\"\"b\"\",\"\"disk\"\":\"\"ssd\"\"}\",\"{\"\"x\"\":\"\"1\"\"}\"\n",
	"id,submit_s,runtime_s,tolerations,architecture,member_group,project\nt,0,1,\"[{\"\"key\"\":\"\"k\"\",\"\"value\"\":\"\"v\"\",\"\"effect\"\":\"\"NoSchedule\"\"}]\",aarch64,g,p\n",
	"id,submit_s,runtime_s,constraints\nt,0,1,\"[{\"\"kind\"\":\"\"exclusive-host\"\"},{\"\"kind\"\":\"\"balanced-attribute\"\",\"\"attribute\"\":\"\"zone\"\",\"\"groups\"\":3,\"\"soft\"\":true}]\"\n",
	"id,submit_s,runtime_s,immunities,selector,constraints\nt,0,1,[], {} ,null\n",
}

// TestTraitSeeds: the fuzz seeds are good records.
func TestTraitSeeds(t *testing.T) {
	for _, s := range traitSeeds {
		jobs, err := tracetest.Drain(NewJSONLReader(strings.NewReader(s), "t.jsonl", traces.Options{Strict: true}))
		if err != nil || len(jobs) != 1 {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range traitSeedsCSV {
		jobs, err := tracetest.Drain(NewCSVReader(strings.NewReader(s), "t.csv", traces.Options{Strict: true}))
		if err != nil || len(jobs) != 1 {
			t.Errorf("%s: %v", s, err)
		}
	}
}
