package run

import (
	"os"
	"path/filepath"
	"testing"
)

// The memory budget that the script's error messages name is a setting a
// --config file may give (it was refused as an unknown key, and a run.yaml
// that wrote it could not be read back).
func TestScriptMemoryBudgetKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "replay.yaml")
	text := "script:\n  path: x.star\n  step_budget: 1000\n  memory_budget_mib: 32\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Script.MemoryBudgetMiB != 32 || spec.Script.StepBudget != 1000 {
		t.Errorf("script block read as %+v", spec.Script.Config)
	}
}

// Every setting a script error names is a key of the script block:
// step_budget, memory_budget_mib, time_budget_ms, and log_max_mib, which
// script.log's last line names when it was cut.
func TestScriptBudgetKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "replay.yaml")
	text := "script:\n  path: x.star\n  time_budget_ms: 250\n  log_max_mib: 2\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Script.TimeBudgetMS != 250 || spec.Script.LogMaxMiB != 2 {
		t.Errorf("script block read as %+v", spec.Script.Config)
	}
	if err := os.WriteFile(path, []byte("script:\n  path: x.star\n  time_budget_ms: 3600001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if spec, err := Load(path); err == nil {
		if err := spec.Script.Validate(); err == nil || err.Error() != "script: time_budget_ms must be at most 3600000, got 3600001" {
			t.Errorf("time_budget_ms over the cap: %v", err)
		}
	}
}
