package external

import (
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// event is one event of a message to the scheduler, in Batsim's field
// order.
type event struct {
	Timestamp float64 `json:"timestamp"`
	Type      string  `json:"type"`
	Data      any     `json:"data"`
}

// message is one request to the scheduler.
type message struct {
	Now    float64 `json:"now"`
	Events []event `json:"events"`
}

type empty struct{}

type simulationBegins struct {
	NbResources         int                 `json:"nb_resources"`
	NbComputeResources  int                 `json:"nb_compute_resources"`
	NbStorageResources  int                 `json:"nb_storage_resources"`
	AllowComputeSharing bool                `json:"allow_compute_sharing"`
	AllowStorageSharing bool                `json:"allow_storage_sharing"`
	Config              beginConfig         `json:"config"`
	ComputeResources    []computeResource   `json:"compute_resources"`
	StorageResources    []computeResource   `json:"storage_resources"`
	Workloads           map[string]string   `json:"workloads"`
	Profiles            map[string]struct{} `json:"profiles"`
}

// beginConfig is Batsim's configuration as a run without Redis, with
// profiles forwarded on submission and without dynamic jobs sends it.
type beginConfig struct {
	RedisEnabled            bool   `json:"redis-enabled"`
	RedisHostname           string `json:"redis-hostname"`
	RedisPort               int    `json:"redis-port"`
	RedisPrefix             string `json:"redis-prefix"`
	ProfilesForwarded       bool   `json:"profiles-forwarded-on-submission"`
	DynamicJobsEnabled      bool   `json:"dynamic-jobs-enabled"`
	DynamicJobsAcknowledged bool   `json:"dynamic-jobs-acknowledged"`
	ProfileReuseEnabled     bool   `json:"profile-reuse-enabled"`
	SchedConfig             string `json:"sched-config"`
	ForwardUnknownEvents    bool   `json:"forward-unknown-events"`
}

type computeResource struct {
	ID             int               `json:"id"`
	Name           string            `json:"name"`
	State          string            `json:"state"`
	Properties     map[string]string `json:"properties"`
	ZoneProperties map[string]string `json:"zone_properties"`
}

type jobSubmitted struct {
	JobID   string       `json:"job_id"`
	Job     jobDesc      `json:"job"`
	Profile delayProfile `json:"profile"`
}

// jobDesc is a job as a Batsim workload describes it; Walltime is left out
// when the trace gives none.
type jobDesc struct {
	ID       string   `json:"id"`
	Subtime  float64  `json:"subtime"`
	Walltime *float64 `json:"walltime,omitempty"`
	Res      int      `json:"res"`
	Profile  string   `json:"profile"`
}

type delayProfile struct {
	Type  string  `json:"type"`
	Delay float64 `json:"delay"`
}

type jobCompleted struct {
	JobID      string `json:"job_id"`
	JobState   string `json:"job_state"`
	ReturnCode int    `json:"return_code"`
	Alloc      string `json:"alloc"`
}

type jobKilled struct {
	JobIDs      []string               `json:"job_ids"`
	JobProgress map[string]jobProgress `json:"job_progress"`
}

type jobProgress struct {
	Profile  string  `json:"profile"`
	Progress float64 `json:"progress"`
}

type notify struct {
	Type      string `json:"type"`
	Resources string `json:"resources,omitempty"`
}

// Batsim's job states in JOB_COMPLETED.
const (
	stateSuccess  = "COMPLETED_SUCCESSFULLY"
	stateFailed   = "COMPLETED_FAILED"
	stateWalltime = "COMPLETED_WALLTIME_REACHED"
	stateKilled   = "COMPLETED_KILLED"
)

// seconds is a time as the protocol writes it.
func seconds(t sim.Time) float64 { return t.Seconds() }

// profileName names the delay profile of a runtime, shared by the jobs of
// that runtime.
func profileName(runtime sim.Time) string {
	return "delay" + strconv.FormatFloat(runtime.Seconds(), 'f', -1, 64)
}
