package registry

import (
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/multifactor"
	"github.com/schedsim/schedsim/sim"
)

// multifactorOrder is Slurm's multifactor priority; its arguments are
// the multifactor: block, or the slurm.conf of --priority-conf.
var multifactorOrder = Order{
	Name: "multifactor", Doc: "Slurm's multifactor priority: age, fair share, job size, partition, QOS (multifactor: block, or its slurm_conf)",
	NewArgs:  func() Args { return &multifactor.Config{} },
	Validate: validateMultifactor, Build: buildMultifactor, Flags: multifactorFlags,
}

func validateMultifactor(args Args, _ policies.Backfill) []error {
	if _, _, err := args.(*multifactor.Config).Resolve(""); err != nil {
		return []error{err}
	}
	return nil
}

// buildMultifactor re-ranks the queue at every pass (priorities age), in
// front of the batch scheduler of the run's backfill.
func buildMultifactor(env Env) (sim.Scheduler, policies.Order, error) {
	cfg, _, err := env.Args.(*multifactor.Config).Resolve("")
	if err != nil {
		return nil, nil, err
	}
	o, err := multifactor.New(cfg, env.Cluster)
	if err != nil {
		return nil, nil, err
	}
	inner, err := policies.NewBatchWith(env.Backfill, env.Cluster, env.Pipeline, env.Batch)
	if err != nil {
		return nil, nil, err
	}
	return o.Wrap(inner), o.Less, nil
}

// multifactorFlags binds --priority-conf, the block's slurm_conf.
func multifactorFlags(fs *pflag.FlagSet, args func() Args) {
	fs.Var(&priorityConf{args}, "priority-conf", "slurm.conf whose Priority* lines and partitions configure --queue multifactor")
}

// priorityConf is --priority-conf: it sets slurm_conf of the run's
// multifactor block.
type priorityConf struct{ args func() Args }

func (p *priorityConf) String() string {
	if c, ok := p.args().(*multifactor.Config); ok {
		return c.SlurmConf
	}
	return ""
}

func (p *priorityConf) Set(v string) error {
	p.args().(*multifactor.Config).SlurmConf = v
	return nil
}

func (p *priorityConf) Type() string { return "string" }
