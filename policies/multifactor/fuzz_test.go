package multifactor

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// Any input either fails with a ParseError naming the file, or gives a
// configuration that validates.
func FuzzParseSlurmConf(f *testing.F) {
	f.Add(sampleConf)
	f.Add("PriorityMaxAge=1-2:3:4\nPartitionName=DEFAULT Priority=3\nPartitionName=x Default=NO\n")
	f.Add("PriorityFlags=NO_FAIR_TREE\\\n,ACCRUE_ALWAYS # c\n\"PriorityWeightAge\"=\"7\"\n")
	f.Fuzz(func(t *testing.T, conf string) {
		got, err := ParseSlurmConf(strings.NewReader(conf), "f.conf")
		if err != nil {
			var pe *traces.ParseError
			if !errors.As(err, &pe) || pe.File != "f.conf" {
				t.Fatalf("error is not a ParseError of f.conf: %v", err)
			}
			return
		}
		if err := got.Config.Validate(); err != nil {
			t.Fatalf("parsed config does not validate: %v\n%q", err, conf)
		}
	})
}
