package run

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim"
)

// FailOnKinds are what --fail-on can name: jobs rejected (no node can
// ever hold them, a constraint no node meets, a script's verdict), jobs
// killed for another reason than their walltime (node events past
// --max-restarts), and placement script errors.
var FailOnKinds = []string{"rejected", "killed", "script-error"}

// failureTally is an observer that counts the run's failed jobs by kind
// and reason, so that a run that lost jobs says so on stderr even under
// --quiet, and --fail-on can turn it into exit 1.
type failureTally struct {
	jobs    int
	counts  map[string]int            // kind → jobs
	reasons map[string]map[string]int // kind → reason → jobs
}

func (t *failureTally) add(kind, reason string) {
	if t.counts == nil {
		t.counts, t.reasons = map[string]int{}, map[string]map[string]int{}
	}
	t.counts[kind]++
	if t.reasons[kind] == nil {
		t.reasons[kind] = map[string]int{}
	}
	t.reasons[kind][reason]++
}

// isScriptError: a script's runtime error or exhausted budget rejected the
// job (a reason the script returned on purpose is not an error); the
// script package words these "script: error …" and "script: step budget …".
func isScriptError(reason string) bool {
	return strings.Contains(reason, "script: error") || strings.Contains(reason, "script: step budget")
}

func (t *failureTally) Submitted(sim.Time, *sim.JobRun) { t.jobs++ }
func (t *failureTally) Started(sim.Time, *sim.JobRun)   {}
func (t *failureTally) Ended(_ sim.Time, j *sim.JobRun) {
	if j.Status == sim.Killed && j.Reason != "walltime exceeded" {
		t.add("killed", j.Reason)
	}
}
func (t *failureTally) Rejected(_ sim.Time, j *sim.JobRun) {
	t.add("rejected", j.Reason)
	if isScriptError(j.Reason) {
		t.add("script-error", j.Reason)
	}
}
func (t *failureTally) Stepped(sim.Time, *sim.Context)  {}
func (t *failureTally) Finished(sim.Time, *sim.Context) {}

// report prints each kind's count and its most frequent reasons.
func (t *failureTally) report(out io.Writer, trace string) {
	for _, kind := range []string{"rejected", "killed"} {
		n := t.counts[kind]
		if n == 0 {
			continue
		}
		fmt.Fprintf(out, "schedsim: %d of %d jobs of %s %s:\n", n, t.jobs, trace, kind)
		type rc struct {
			reason string
			n      int
		}
		var rs []rc
		for r, c := range t.reasons[kind] {
			rs = append(rs, rc{r, c})
		}
		sort.Slice(rs, func(a, b int) bool {
			if rs[a].n != rs[b].n {
				return rs[a].n > rs[b].n
			}
			return rs[a].reason < rs[b].reason
		})
		for i, r := range rs {
			if i == 3 {
				fmt.Fprintf(out, "  … and %d other reasons\n", len(rs)-3)
				break
			}
			fmt.Fprintf(out, "  %d× %s\n", r.n, r.reason)
		}
	}
}

// failOn is an error (exit 1) when the run has any of the kinds named.
func (t *failureTally) failOn(kinds []string) error {
	var hit []string
	for _, k := range kinds {
		if n := t.counts[k]; n > 0 {
			hit = append(hit, fmt.Sprintf("%s (%s)", k, words.Count(n, "job")))
		}
	}
	if len(hit) == 0 {
		return nil
	}
	return Failed(fmt.Errorf("--fail-on: the run has %s", strings.Join(hit, ", ")))
}

// checkFailOn validates --fail-on's kinds.
func checkFailOn(kinds []string) error {
	for _, k := range kinds {
		if !slices.Contains(FailOnKinds, k) {
			return fmt.Errorf("unknown kind %q (known: %s)", k, strings.Join(FailOnKinds, ", "))
		}
	}
	return nil
}
