package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// --version names the version; the trace may be given as an argument;
// flag values are refused in words, naming the flag.
func TestCLIConventions(t *testing.T) {
	out, err := execute(t, "--version")
	if err != nil || !strings.HasPrefix(out, "schedsim 0.") {
		t.Errorf("--version: %q, %v", out, err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	trace := "../../testdata/experiments/kth-sp2-2000.swf.gz"
	if _, err := execute(t, "replay", trace, "--quiet", "--out", dir); err != nil {
		t.Fatal(err)
	}
	spec, err := run.Load(filepath.Join(dir, "run.yaml"))
	if err != nil || filepath.Base(spec.Trace) != "kth-sp2-2000.swf.gz" {
		t.Errorf("the positional trace is not the run's: %q, %v", spec.Trace, err)
	}
	if _, err := execute(t, "replay", trace, "--trace", trace); exitCode(err) != run.ExitBadInput {
		t.Errorf("a trace twice: %v", err)
	}
	for _, c := range []struct{ args, want string }{
		{"--mtbf often", `--mtbf: want a number, got "often"`},
		{"--seed -1", `--seed: want a whole number ≥ 0, got "-1"`},
		{"--kill-at-walltime=maybe", `--kill-at-walltime: want true or false, got "maybe"`},
	} {
		_, err := execute(t, append([]string{"replay"}, strings.Fields(c.args)...)...)
		if exitCode(err) != run.ExitBadInput || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.args, err, c.want)
		}
	}
}
