package sweep

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// Several seeds over runs that draw nothing warn, naming how many; one
// seed, or runs with jitter, do not.
func TestWarnIdenticalReplicas(t *testing.T) {
	plain, jittered := Run{Spec: run.Default()}, Run{Spec: run.Default()}
	jittered.Spec.JitterRuntime = 0.1
	for _, c := range []struct {
		seeds int
		runs  []Run
		want  string
	}{
		{5, []Run{plain, plain}, "seeds: 5, but 2 of 2 runs draw no random number"},
		{5, []Run{plain, jittered}, "1 of 2 runs"},
		{5, []Run{jittered}, ""},
		{1, []Run{plain}, ""},
	} {
		var b strings.Builder
		var check replicaCheck
		for i := range c.runs {
			check.add(&c.runs[i])
		}
		check.warn(&b, c.seeds)
		if got := b.String(); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("seeds %d, %d runs: warned %q, want %q", c.seeds, len(c.runs), got, c.want)
		}
	}
}
