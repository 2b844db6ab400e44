package slurmconf

import (
	"bufio"
	"bytes"
	"strings"
)

// Sniff reports whether head, the first bytes of a file, is a slurm.conf
// or scontrol's node or partition output: its first line that is not
// blank or a comment starts with NodeName=, PartitionName= or another
// Key=Value setting of slurm.conf (ClusterName=, SlurmctldHost=…), keys in
// any case. A cluster YAML file starts with a "key:" instead.
func Sniff(head []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '#' {
			continue
		}
		k, _, ok := strings.Cut(t, "=")
		return ok && isKey(k)
	}
	return false
}
