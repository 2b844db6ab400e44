package multifactor

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

const sampleConf = `# slurm.conf, priority part
ClusterName=demo
PriorityType=priority/multifactor
PriorityFlags=NO_FAIR_TREE,SMALL_RELATIVE_TO_TIME
priorityweightage=1000          # keys are case-insensitive
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=1000
PriorityWeightQOS=0 # don't use the qos factor
PriorityMaxAge=14-0
PriorityDecayHalfLife=1:30       # min:sec, rounded up to 2 minutes
PriorityFavorSmall=YES
PriorityWeightTRES=CPU=1000,Mem=2000
NodeName=c[001-004] CPUs=8 RealMemory=64000
PartitionName=DEFAULT PriorityTier=5
PartitionName=batch Nodes=c[001-004] Default=YES MaxTime=1-0 \
    PriorityJobFactor=10
PartitionName=debug Nodes=c001 Priority=20
PartitionName=long Nodes=c[002-004] PriorityJobFactor=2 PriorityTier=1
PartitionName=scavenge Nodes=ALL
`

func TestParseSlurmConf(t *testing.T) {
	got, err := ParseSlurmConf(strings.NewReader(sampleConf), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Weights:             Weights{Age: 1000, FairShare: 10000, JobSize: 1000, Partition: 1000},
		MaxAgeS:             seconds(14 * 86400),
		DecayHalfLifeS:      seconds(120),
		FavorSmall:          true,
		PartitionPriorities: map[string]int64{"batch": 10, "debug": 20, "long": 2, "scavenge": 1},
		PartitionTiers:      map[string]int64{"batch": 5, "debug": 20, "long": 1, "scavenge": 5},
		DefaultPartition:    "batch",
	}
	if !reflect.DeepEqual(got.Config, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got.Config, want)
	}
	wantNotes := []string{
		"slurm.conf:4: PriorityFlags=SMALL_RELATIVE_TO_TIME is not modelled: ignored",
		"slurm.conf:13: PriorityWeightTRES is not modelled: ignored",
	}
	if !reflect.DeepEqual(got.Notes, wantNotes) {
		t.Errorf("notes:\n got %q\nwant %q", got.Notes, wantNotes)
	}
	if err := got.Config.Validate(); err != nil {
		t.Errorf("the parsed config does not validate: %v", err)
	}
}

// Without NO_FAIR_TREE Slurm runs Fair Tree, and with a PriorityType
// other than multifactor it uses no priorities: both are noted. Slurm's
// escapes: \# is a literal #.
func TestSlurmConfNotes(t *testing.T) {
	conf := "PriorityType=priority/basic\nPriorityDecayHalfLife=UNLIMITED\nPartitionName=a\\#1 Default=yes\n"
	got, err := ParseSlurmConf(strings.NewReader(conf), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"s.conf:2: PriorityDecayHalfLife=UNLIMITED: usage never decays (as 0)",
		"s.conf:1: PriorityType=priority/basic: Slurm would not use these priorities; the multifactor order computes them anyway",
		"s.conf: PriorityFlags lacks NO_FAIR_TREE: Slurm would compute fair-share with Fair Tree; this order uses the classic formula",
	}
	if !reflect.DeepEqual(got.Notes, want) {
		t.Errorf("notes:\n got %q\nwant %q", got.Notes, want)
	}
	if got.Config.DefaultPartition != "a#1" || got.Config.DecayHalfLifeS == nil || *got.Config.DecayHalfLifeS != 0 {
		t.Errorf("got default partition %q, half-life %v", got.Config.DefaultPartition, got.Config.DecayHalfLifeS)
	}
}

func TestSlurmConfErrors(t *testing.T) {
	for _, tc := range []struct{ conf, want string }{
		{"PriorityWeightAge=-1\n", "c.conf:1: field PriorityWeightAge: want an unsigned 32-bit integer"},
		{"\n\nPriorityWeightQOS=4294967296\n", "c.conf:3: field PriorityWeightQOS: want an unsigned 32-bit integer"},
		{"PriorityMaxAge=2-3:4:5:6\n", "c.conf:1: field PriorityMaxAge: bad time"},
		{"PriorityMaxAge=UNLIMITED\n", "c.conf:1: field PriorityMaxAge: UNLIMITED: the age factor needs a finite maximum age"},
		{"PriorityDecayHalfLife=7days\n", "c.conf:1: field PriorityDecayHalfLife: bad time"},
		{"PriorityFavorSmall=maybe\n", "c.conf:1: field PriorityFavorSmall: want YES or NO"},
		{"PriorityWieghtAge=10\n", "c.conf:1: field PriorityWieghtAge: unknown priority setting"},
		{"PartitionName=p PriorityJobFactor=65534\n", "c.conf:1: field PriorityJobFactor: want an integer in 0…65533"},
		{"# a\nPartitionName=p Priority=x\n", "c.conf:2: field Priority: want an integer in 0…65533"},
		{"PartitionName=p\nPartitionName=p\n", `c.conf:2: field PartitionName: partition "p" is already defined on line 1`},
		{"PartitionName=p \\\n Nodes=x \\\n PriorityTier=a\n", "c.conf:1: field PriorityTier: want an integer"},
		{`PartitionName="p`, "c.conf:1: unterminated quote"},
		{`PartitionName="a b"`, `c.conf:1: field PartitionName: want a partition name without blanks or commas, got "a b"`},
	} {
		_, err := ParseSlurmConf(strings.NewReader(tc.conf), "c.conf")
		var pe *traces.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a ParseError starting %q", tc.conf, err, tc.want)
		}
	}
}

func TestParseSlurmMinutes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"30", 1800}, {"0", 0}, {"1:30", 120}, {"1:00", 60}, {"2:03:04", 7440}, {"14-0", 14 * 86400},
		{"1-2", 86400 + 7200}, {"1-2:3", 86400 + 7200 + 180}, {"1-2:3:4", 86400 + 7200 + 240}, {"7-0", 604800},
	} {
		got, err := parseSlurmMinutes(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "x", "1:2:3:4", "1-", "-5", "1--2", "1-2-3", ":5", "1.5", "1-2:", "5 min"} {
		if _, err := parseSlurmMinutes(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	for _, inf := range []string{"UNLIMITED", "infinite", "-1"} {
		if _, err := parseSlurmMinutes(inf); !errors.Is(err, errUnlimited) {
			t.Errorf("%q: got %v, want unlimited", inf, err)
		}
	}
}

// A multifactor block naming a slurm.conf takes its settings and keeps
// its own shares and QOS priorities; setting both is refused.
func TestResolveSlurmConf(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(sampleConf), 0o644); err != nil {
		t.Fatal(err)
	}
	block := Config{SlurmConf: "slurm.conf", SharesBy: ByUser, Shares: map[string]float64{"u1": 2}, QOSPriorities: map[string]int64{"high": 5}}
	got, notes, err := block.Resolve(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Weights.FairShare != 10000 || got.DefaultPartition != "batch" || got.SharesBy != ByUser ||
		got.Shares["u1"] != 2 || got.QOSPriorities["high"] != 5 || got.SlurmConf != "" || len(notes) != 2 {
		t.Errorf("resolved %+v, notes %q", got, notes)
	}
	block.Weights.Age = 5
	block.FavorSmall = true
	_, _, err = block.Resolve(dir)
	for _, want := range []string{"multifactor.weights: slurm_conf gives it", "multifactor.favor_small: slurm_conf gives it"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
	missing := Config{SlurmConf: "nope.conf"}
	if _, _, err := missing.Resolve(dir); err == nil || !strings.Contains(err.Error(), "multifactor.slurm_conf:") {
		t.Errorf("missing file: got %v", err)
	}
}
