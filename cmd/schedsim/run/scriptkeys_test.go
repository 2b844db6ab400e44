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
