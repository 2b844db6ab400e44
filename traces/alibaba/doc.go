// Package alibaba reads the batch workload of the Alibaba cluster trace
// v2018 (github.com/alibaba/clusterdata, cluster-trace-v2018: schema.md
// and trace_2018.md): batch_task, batch_instance and machine_meta, each a
// headerless CSV file, optionally gzip-compressed, columns in the schema's
// order:
//
//	batch_task      task_name, instance_num, job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem
//	batch_instance  instance_name, task_name, job_name, task_type, status, start_time, end_time, machine_id,
//	                seq_no, total_seq_no, cpu_avg, cpu_max, mem_avg, mem_max
//	machine_meta    machine_id, time_stamp, failure_domain_1, failure_domain_2, cpu_num, mem_size, status
//
// Times are whole seconds from the start of the 8-day window; 0 means
// "before or after the window".
//
// # Mapping
//
// A job of the trace is a DAG of tasks; a task has instance_num instances
// that do the same work. A sim.Job's tasks are alike, so one batch_task row
// is one sim.Job:
//
//	ID        job_name "/" task_name (j_1/M1)
//	Submit    the job's first start_time, for all its tasks: the trace has
//	          no submit time, and a task that waits for others is held back
//	          by its dependencies, not by its submit time
//	Runtime   end_time − start_time; with batch_instance, the longest
//	          instance's end_time − start_time (the sim.Job's tasks start
//	          together and it ends with its last)
//	Walltime  none (sim.NoWalltime): schedulers plan with the runtime
//	Tasks     instance_num
//	Request   cpu = plan_cpu / 100 cores, mem = plan_mem (normalised, 0–100
//	          of the largest machine), per instance
//	Group     job_name;  Queue: task_type
//	DependsOn the tasks its name lists (below), after success
//
// Every status is replayed alike: a task that failed in the trace still
// held its resources for its run. Gang is false: instances do not need to
// start together, although the engine starts a job's tasks at once.
//
// # DAG names
//
// trace_2018.md: a task named M5_3_4 is task 5 of its job and waits for
// tasks 3 and 4; the leading letter (M, R, J, …) carries no meaning. A
// name is read as a DAG name when it is one ASCII letter alone or followed
// by a digit or '_' (ParseTaskName); other names (task_Nzg3…, MergeTask)
// are independent tasks. These are bad records: a DAG name that is not
// <letter><digits>(_<digits>)* ("M", "M_1", "R2_", "J3_x"), a task number
// given twice in a job, a dependency on a number the job does not have,
// and a cycle (M2_3 with M3_2, or M2_2). A task waiting on a dropped task
// is dropped too. The jobs of one trace job come out in topological order
// (ties in file order): the engine resolves a dependency to an earlier job.
//
// # Order and memory
//
// The tables are grouped by job, not sorted by time, and sim.Source wants
// submit order. The reader assumes a job's rows are contiguous (rows of a
// job that reappear while it is still held are merged) and holds a window
// of Options.Window jobs (default 4096) in a heap by submit time: a job
// leaves when the window is full and it is the earliest. A row that
// starts before a job already handed out is a bad record ("starts before
// jobs already replayed"). Memory is bounded by the window's jobs, never
// the table. A table far from time order should be sorted first, jobs by
// their first start, rows kept together (docs/traces.md gives the commands).
//
// batch_instance is joined by a merge on job_name: the reader assumes it
// lists jobs in batch_task's order, each job's rows together, and holds
// one job's per-task summary. A job whose instances are elsewhere keeps
// the runtimes of batch_task; its instance rows are bad records
// (lenient: counted at the end; strict: an error naming the row). Only
// task_name, job_name, start_time and end_time of an instance are read.
//
// # Machines
//
// ReadMachines turns machine_meta into nodes (cpu = cpu_num, mem =
// mem_size; capacity from a machine's earliest row, later changes of size
// are ignored) and node events: statuses USING and IDLE keep a machine in
// service (InService), any other status takes it down (sim.NodeFail) until
// a later row puts it back (sim.NodeRecover); a machine first seen after
// time 0 is down until then. The file is small and read whole.
//
// # Bad records
//
// Strict mode stops at the first with a *traces.ParseError naming file,
// line and field; lenient mode skips it and counts it by reason (Skips).
// Bad fields: a missing job_name or task_name, a malformed DAG name, an
// instance_num that is not a whole number ≥ 1, a time that is missing,
// negative or 0 (outside the window: the run cannot be replayed), an
// end_time before the start_time, a plan_cpu or plan_mem missing or
// negative, a plan_mem above 100; in machine_meta a missing machine_id,
// a bad time_stamp, cpu_num not ≥ 1, mem_size not in (0, 100], an empty
// status.
package alibaba
