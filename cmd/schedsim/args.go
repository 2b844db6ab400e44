package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim/run"
)

// wantArgs checks a command's positional arguments: between min and max
// (max < 0: no bound), else a usage error that says what the command
// needs and shows an example, rather than cobra's "accepts 1 arg(s),
// received 0".
func wantArgs(min, max int, what, example string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		got := words.Count(len(args), "argument")
		if len(args) > 0 {
			got += " (" + strings.Join(args, " ") + ")"
		}
		return run.BadInput(fmt.Errorf("%s needs %s, got %s; for example: %s", cmd.Name(), what, got, example))
	}
}

// defaultOut is the one rule for an output directory not given with
// --out: runs/<command>-<input name>, the input's base name without its
// file-type extensions (inputExts), so running the same command again finds
// the same directory (a sweep resumes there). replay names its run
// directory runs/<trace>-<queue>-<backfill>[-<model>] by the same rule,
// with the policy for the command.
func defaultOut(command, input string) string {
	name := filepath.Base(filepath.Clean(input))
	for {
		ext := strings.ToLower(filepath.Ext(name))
		if !inputExts[ext] || ext == strings.ToLower(name) {
			break
		}
		name = name[:len(name)-len(ext)]
	}
	return filepath.Join("runs", command+"-"+name)
}

// inputExts are the extensions defaultOut drops from an input's name.
var inputExts = map[string]bool{".gz": true, ".yaml": true, ".yml": true, ".csv": true, ".json": true, ".jsonl": true,
	".swf": true, ".parquet": true, ".sacct": true}
