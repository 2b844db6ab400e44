package formats

import (
	"github.com/schedsim/schedsim/traces/sacct"
	"github.com/schedsim/schedsim/traces/slurmconf"
)

// openSacct opens a Slurm accounting dump (sacct --parsable2). Times are
// calendar times in the request's time zone. With a slurm.conf cluster,
// jobs are confined to their partitions and Partition_Limit walltimes
// are the partitions' limits.
func openSacct(req Request) (*Opened, error) {
	opt := sacct.Options{Options: req.options(), Location: req.TimeZone}
	if sc := req.SlurmCluster; sc != nil {
		opt.PartitionTimeLimit, opt.ConfinePartitions, opt.DefaultPartition = sc.TimeLimits(), true, sc.Default
	}
	var r *sacct.Reader
	var err error
	if req.Data != nil {
		r, err = sacct.OpenBytes(req.Path, req.Data, opt)
	} else {
		r, err = sacct.Open(req.Path, opt)
	}
	if err != nil {
		return nil, err
	}
	out := &Opened{Source: r, Skips: r.Skips, Close: func() { r.Close() }, Records: r.Records(), Traitless: true, Epoch: r.Epoch()}
	if loc := r.Location(); loc != nil {
		out.TimeZone = loc.String()
	}
	return out, nil
}

// IsSlurmConf says whether a --cluster file is a slurm.conf (or scontrol
// show node output) rather than a cluster YAML: by its name, else its
// first bytes.
func IsSlurmConf(path string) bool {
	if hasExt(".conf")(path) {
		return true
	}
	head, err := fileHead(path, nil)
	return err == nil && slurmconf.Sniff(head)
}
