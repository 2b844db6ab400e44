package run_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEngineScenarioErrors: a broken scenario file fails with the file,
// the line and what is wrong, whether the problem is in the file's shape,
// in a run's config or in a job the replay reads.
func TestEngineScenarioErrors(t *testing.T) {
	const head = "# a broken scenario\ncluster:\n  nodes:\n    - {name: n1, resources: {cpu: 1}}\n"
	const job = "jobs:\n  - {id: j1, submit_s: 0, runtime_s: 10, request: {cpu: 1}}\n"
	for _, c := range []struct {
		name, text string
		want       []string // in the message, each
	}{
		{"unknown-config-key", head + job + "runs:\n  - name: a\n    config: {backfil: none}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{`bad.yaml:9: unknown key "backfil" (did you mean "backfill"?)`}},
		{"bad-config-value", head + job + "runs:\n  - name: a\n    config:\n      backfill: sometimes\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{`bad.yaml:10: backfill: unknown backfill "sometimes"`}},
		{"runner-key", head + job + "runs:\n  - name: a\n    config: {out: elsewhere}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{"bad.yaml:9: run a: config: out is the runner's to set"}},
		{"bad-job", head + "jobs:\n  - {id: j1, submit_s: 0, runtime_s: 10}\n  - {id: j2, submit_s: 0, runtime_s: -5}\n" +
			"runs:\n  - name: a\n    config: {}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{"jobs.jsonl:2: field runtime_s: must be ≥ 0 (the job at ", "bad.yaml:7)"}},
		{"unknown-top-key", head + job + "run:\n  - name: a\n", []string{"bad.yaml: yaml: unmarshal errors:\n  line 7: field run not found"}},
		{"folded-expect", head + job + "runs:\n  - name: a\n    config: {}\n    expect: >\n      j1: start 0 end 10 on n1\n",
			[]string{"bad.yaml:9: run a: want an expect: | block"}},
		{"calendar-without-epoch", head + job + "files:\n  c.yaml: |\n    phases: [{windows: []}]\n" + "runs:\n  - name: a\n    config: {calendar: c.yaml}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{"bad.yaml:12: calendar: ", "c.yaml: trace ", "jobs.jsonl has no calendar time (no epoch"}},
		{"calendar-bad-day", "# bad\nepoch: 1997-03-03T00:00:00Z\n" + strings.TrimPrefix(head, "# a broken scenario\n") + job + "files:\n  c.yaml: |\n    phases:\n      - windows: [{days: mon-fry, start: \"07:00\"}]\n" + "runs:\n  - name: a\n    config: {calendar: c.yaml}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{`bad.yaml:14: calendar: `, `c.yaml:2: phases[0].windows[0].days: unknown day "fry"`}},
		{"calendar-conservative", head + job + "files:\n  c.yaml: |\n    phases: [{windows: []}]\n" + "runs:\n  - name: a\n    config: {calendar: c.yaml, backfill: conservative}\n    expect: |\n      j1: start 0 end 10 on n1\n",
			[]string{"calendar: a calendar holds jobs back from the scheduler, which conservative backfilling's reservations"}},
		{"no-comment", strings.TrimPrefix(head, "# a broken scenario\n") + job, []string{"bad.yaml: a scenario opens with a comment"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "bad.yaml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			err := playFirstRun(t, path)
			if err == nil {
				t.Fatalf("no error, want one containing %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want an error containing %q", err, w)
				}
			}
		})
	}
}

// playFirstRun loads a scenario and replays its first run.
func playFirstRun(t *testing.T, path string) error {
	sc, err := loadScenario(path)
	if err != nil {
		return err
	}
	dir := t.TempDir()
	names, err := sc.materialise(path, dir)
	if err != nil {
		return err
	}
	_, err = playTwice(t, path, dir, names, sc.jobOrder(), sc.Jobs, sc.Runs[0])
	return err
}
