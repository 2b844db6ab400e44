package run

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/policies/external"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/swf"
)

// SchedulerSpec hands the run's decisions (queue order, backfilling,
// placement) to a process outside schedsim that speaks Batsim's protocol
// (policies/external). SchedulerCommand, when set, is started for the run
// with {port} replaced by a free port, and stopped by its pid after it.
type SchedulerSpec struct {
	Scheduler         string  `yaml:"scheduler,omitempty"`
	SchedulerCommand  string  `yaml:"scheduler_command,omitempty"`
	SchedulerTimeoutS float64 `yaml:"scheduler_timeout_s,omitempty"`
}

// defaultSchedulerEndpoint is where a started scheduler listens when
// --scheduler is not given.
const defaultSchedulerEndpoint = "batsim:tcp://127.0.0.1:{port}"

// defaultSchedulerTimeout is how long schedsim waits for one reply.
const defaultSchedulerTimeout = 60 * time.Second

func (c *Spec) bindSchedulerFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.Scheduler, "scheduler", c.Scheduler, "an external scheduler makes the run's decisions over Batsim's protocol: batsim:tcp://HOST:PORT (ZeroMQ; the scheduler listens)")
	fs.StringVar(&c.SchedulerCommand, "scheduler-command", c.SchedulerCommand, "start this external scheduler for the run, {port} replaced by a free port (default --scheduler batsim:tcp://127.0.0.1:{port}); stopped after the run")
	fs.Float64Var(&c.SchedulerTimeoutS, "scheduler-timeout", c.SchedulerTimeoutS, "seconds to wait for each reply of the external scheduler (default 60)")
}

// External says the run's decisions come from an external scheduler.
func (c *SchedulerSpec) External() bool { return c.Scheduler != "" || c.SchedulerCommand != "" }

func (c *Spec) validateScheduler() []error {
	if !c.External() {
		if c.SchedulerTimeoutS != 0 {
			return []error{c.problem("scheduler_timeout_s", "applies to an external scheduler only (--scheduler or --scheduler-command)")}
		}
		return nil
	}
	var errs []error
	if _, err := external.ParseScheduler(external.SubstitutePort(c.endpoint(), 1)); err != nil {
		errs = append(errs, c.problem("scheduler", "%v", err))
	}
	if c.Scheduler != "" && c.SchedulerCommand == "" && external.SubstitutePort(c.Scheduler, 1) != c.Scheduler {
		errs = append(errs, c.problem("scheduler", "{port} is replaced only for a scheduler schedsim starts (--scheduler-command)"))
	}
	if c.SchedulerCommand != "" {
		if words, err := external.SplitCommand(c.SchedulerCommand); err != nil {
			errs = append(errs, c.problem("scheduler_command", "%v", err))
		} else if len(words) == 0 {
			errs = append(errs, c.problem("scheduler_command", "is empty"))
		}
	}
	if c.SchedulerTimeoutS < 0 {
		errs = append(errs, c.problem("scheduler_timeout_s", "must be > 0 seconds, got %s", sim.FormatNumber(c.SchedulerTimeoutS)))
	}
	if c.Queue != "fcfs" {
		errs = append(errs, c.problem("queue", "the external scheduler orders the queue itself: drop --queue %s", c.Queue))
	}
	if st := c.Placement.String(); st != "first-fit" || len(c.Placement.Spec.Scorers) > 0 || c.Script.Path != "" || c.CandidateLimit != "" || c.Explain {
		errs = append(errs, c.problem("scheduler", "the external scheduler places jobs itself: drop --placement, --script, --candidate-limit and --explain"))
	}
	if c.backfillArgsGiven() {
		errs = append(errs, c.problem("scheduler", "the external scheduler backfills itself: drop --reservations, --planning-delay and --compat"))
	}
	return errs
}

// endpoint is --scheduler, or the default of a started scheduler.
func (c *Spec) endpoint() string {
	if c.Scheduler == "" {
		return defaultSchedulerEndpoint
	}
	return c.Scheduler
}

// externalRun is a run's connection to its external scheduler, and the
// process schedsim started for it.
type externalRun struct {
	sched     *external.Scheduler
	transport external.Transport
	proc      *external.Process
	log       *os.File
}

// startExternal starts the run's scheduler process (when the spec names
// a command), its output in dir/scheduler.log, and connects to it.
func startExternal(cfg *Spec, w *Workload, c *sim.Cluster, engineCfg *sim.Config, dir string, transcript io.Writer) (*externalRun, error) {
	x := &externalRun{}
	timeout := defaultSchedulerTimeout
	if cfg.SchedulerTimeoutS > 0 {
		timeout = time.Duration(cfg.SchedulerTimeoutS * float64(time.Second))
	}
	endpoint := cfg.endpoint()
	var exited <-chan struct{}
	if cfg.SchedulerCommand != "" {
		port, err := external.FreePort()
		if err != nil {
			return nil, fmt.Errorf("a port for the scheduler: %w", err)
		}
		endpoint = external.SubstitutePort(endpoint, port)
		if x.log, err = os.Create(filepath.Join(dir, "scheduler.log")); err != nil {
			return nil, err
		}
		if x.proc, err = external.StartProcess(external.SubstitutePort(cfg.SchedulerCommand, port), x.log); err != nil {
			x.close(false)
			return nil, BadInput(fmt.Errorf("--scheduler-command: %w", err))
		}
		exited = x.proc.Exited()
	}
	ep, err := external.ParseScheduler(endpoint)
	if err != nil {
		x.close(false)
		return nil, BadInput(fmt.Errorf("--scheduler: %w", err))
	}
	if x.transport, err = external.Dial(ep, timeout, exited); err != nil {
		if x.proc != nil {
			<-x.proc.Exited()
			err = fmt.Errorf("%w (%s)", err, x.proc.Status())
			if tail := x.proc.Tail(); tail != "" {
				err = fmt.Errorf("%w\nthe scheduler's last output:\n%s", err, tail)
			}
		}
		x.close(false)
		return nil, BadInput(fmt.Errorf("external scheduler: %w", err))
	}
	opt := external.Options{Transport: x.transport, Cluster: c, Workload: w.Name, Transcript: transcript, Process: x.proc,
		Pool: w.ClusterModel == string(swf.Pool)}
	if engineCfg.Failures == nil && len(engineCfg.NodeEvents) > 0 {
		opt.HasNodeEvents = true
		for _, e := range engineCfg.NodeEvents {
			opt.LastNodeEvent = max(opt.LastNodeEvent, e.At)
		}
	}
	if x.sched, err = external.New(opt); err != nil {
		x.close(false)
		return nil, BadInput(fmt.Errorf("external scheduler: %w", err))
	}
	return x, nil
}

// close closes the connection and stops the process by its pid: at once
// after a failure, after a grace period for it to exit by itself after
// SIMULATION_ENDS.
func (x *externalRun) close(ended bool) {
	if x == nil {
		return
	}
	if x.transport != nil {
		x.transport.Close()
		x.transport = nil
	}
	if x.proc != nil {
		grace := time.Duration(0)
		if ended {
			grace = 5 * time.Second
		}
		x.proc.Stop(grace)
		x.proc = nil
	}
	if x.log != nil {
		x.log.Close()
		x.log = nil
	}
}

// isProtocolError says err is an external scheduler's misbehaviour.
func isProtocolError(err error) bool {
	var pe *external.ProtocolError
	return errors.As(err, &pe)
}

// queueLabel and backfillLabel name the run's policy in the summary:
// "external" for both when an external scheduler decides.
func queueLabel(cfg *Spec) string {
	if cfg.External() {
		return "external"
	}
	return cfg.Queue
}

func backfillLabel(cfg *Spec) string {
	if cfg.External() {
		return "external"
	}
	return cfg.Backfill
}

// externalLabel says which external scheduler decided, for the summary.
func externalLabel(cfg *Spec) string {
	if cfg.SchedulerCommand != "" {
		return fmt.Sprintf("%q (started by schedsim)", cfg.SchedulerCommand)
	}
	return cfg.Scheduler
}
