package traces

import "path/filepath"

// NamedLike says whether the base name of path, without a ".gz" suffix,
// matches the glob pattern: how the readers of tables with fixed names
// (batch_task*.csv, vmtable*.csv) tell their files, compressed or not.
func NamedLike(path, pattern string) bool {
	base := filepath.Base(path)
	if ext := filepath.Ext(base); ext == ".gz" {
		base = base[:len(base)-len(ext)]
	}
	matched, _ := filepath.Match(pattern, base)
	return matched
}
