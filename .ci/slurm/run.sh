#!/usr/bin/env bash
# A real Slurm on this one host, for CI: a sharded sweep through deploy/slurm and a
# round trip through Slurm's accounting. Runs as root, needs no stdin and no systemd;
# .ci/run calls it, and it runs alone too: bash .ci/slurm/run.sh
#
# What it does, in order:
#  1. Installs Debian's slurm-wlm (slurmctld, slurmd, the clients), slurmdbd, munge
#     and mariadb-server with apt-get, and builds schedsim.
#  2. Starts, each in the foreground (-D, -F) as a background process of this script
#     whose pid it records: MariaDB on its own data directory, munged with a fresh key,
#     slurmdbd, slurmctld and slurmd. Everything (configuration, sockets, state, logs)
#     lives in one temporary directory, the ports are not Slurm's or MariaDB's defaults,
#     so a system instance, started or not by the packages' scripts, is left alone.
#     slurm.conf is one node of 4 CPUs (SlurmdParameters=config_overrides, so also on
#     a 2-core machine) and no cgroups: proctrack/linuxproc, task/none, no job
#     accounting gather. SLURM_CONF points every Slurm command at it.
#  3. Sweep: deploy/slurm/submit.sh runs testdata/experiments/kth-lattice.yaml as a
#     4-task array and a merge job (afterok). Array task 1 fails once on purpose (a
#     wrapper around schedsim that fails while a marker file exists), so the merge
#     waits for ever (DependencyNeverSatisfied); submit.sh --retry 1 resubmits shard
#     1 of 4 and a new merge. The merged summary.csv and summary.parquet must equal a
#     single-process sweep's byte for byte.
#  4. Accounting: seven 2-second jobs of 1 to 4 CPUs (-n, -c; -N is 1, there being
#     one node) and several time limits, one of them failing, through slurmdbd into
#     MariaDB, dumped with sacct --allocations --parsable2 --format=ALL into sacct.txt
#     (copied to $SCHEDSIM_CI_ARTIFACTS when set); the dump must list them with the
#     CPUs asked for.
#  5. Replay of that dump (--trace-format sacct) on a cluster file of the one host:
#     job count, job ids in submit order and none rejected (replay's jobs table), and
#     sizes (tasks × request.cpu of `schedsim convert` = NCPUS) against the dump.
#     Skipped, with a message, while `schedsim replay --help` does not mention sacct.
# On exit, pass or fail, the daemons are stopped by their pids (TERM, then KILL);
# on failure the daemons' logs are printed and the directory is kept.
#
# Environment: SCHEDSIM_SLURM_DIR (the working directory; default a new one under
# /tmp, removed on success), SCHEDSIM_CI_ARTIFACTS (where to copy the sacct dump).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
started=$SECONDS

step() { printf '\n== slurm: %s (%ds)\n' "$*" $((SECONDS - started)); }
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# wait_until TIMEOUT_S WHAT COMMAND…: polls COMMAND each second until it succeeds.
wait_until() {
	local timeout=$1 what=$2
	shift 2
	local deadline=$((SECONDS + timeout))
	until "$@" >"$work/log/wait.out" 2>&1; do
		((SECONDS < deadline)) || { cat "$work/log/wait.out"; fail "$what: not within ${timeout}s"; }
		sleep 1
	done
}

work=${SCHEDSIM_SLURM_DIR:-$(mktemp -d /tmp/schedsim-slurm.XXXXXX)}
mkdir -p "$work"/{bin,etc,run,log,state,spool,mysql}
chmod 700 "$work"

# The daemons this script started, by name, and their pids.
declare -A pids=()
stop_daemons() {
	local status=$? name pid
	# One after the other, each after those that talk to it.
	for name in slurmd slurmctld slurmdbd munged mariadbd; do
		pid=${pids[$name]:-}
		[ -n "$pid" ] || continue
		kill -TERM "$pid" 2>/dev/null || continue
		for _ in $(seq 30); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "$name (pid $pid) ignored TERM for 15 s: KILL"
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	if [ "$status" -ne 0 ]; then
		for log in "$work"/log/{mariadb,munged,slurmdbd,slurmctld,slurmd}.log; do
			[ -f "$log" ] && { echo "--- $log (last 30 lines)"; tail -30 "$log"; }
		done
		echo "slurm CI failed after $((SECONDS - started)) s; its directory is kept: $work" >&2
	elif [ -z "${SCHEDSIM_SLURM_DIR:-}" ]; then
		rm -rf "$work"
	fi
	exit "$status"
}
trap stop_daemons EXIT

# start NAME COMMAND…: runs a daemon in the foreground as a background job.
start() {
	local name=$1
	shift
	"$@" >"$work/log/$name.out" 2>&1 &
	pids[$name]=$!
	echo "started $name, pid ${pids[$name]}"
}

# alive NAME: fails, with its output, when the daemon has exited.
alive() {
	kill -0 "${pids[$1]}" 2>/dev/null || {
		cat "$work/log/$1.out" >&2
		fail "$1 exited"
	}
}

step "install slurm-wlm, slurmdbd, munge, mariadb-server"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends slurm-wlm slurmdbd munge mariadb-server python3 >"$work/log/apt.log" 2>&1 ||
	{ tail -30 "$work/log/apt.log"; fail "apt-get install"; }
slurmctld -V

step "build schedsim"
bin=$work/bin/schedsim
go build -o "$bin" ./cmd/schedsim

host=$(hostname -s)
ctld_port=16817 slurmd_port=16818 dbd_port=16819 db_port=13306
db_pass=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
export SLURM_CONF=$work/etc/slurm.conf

step "MariaDB"
mariadb-install-db --user=root --datadir="$work/mysql" --auth-root-authentication-method=socket \
	--skip-test-db >"$work/log/mariadb-install.log" 2>&1 || { tail -20 "$work/log/mariadb-install.log"; fail "mariadb-install-db"; }
start mariadbd mariadbd --no-defaults --user=root --datadir="$work/mysql" --socket="$work/run/mysqld.sock" \
	--port=$db_port --bind-address=127.0.0.1 --skip-name-resolve --log-error="$work/log/mariadb.log" \
	--pid-file="$work/run/mariadbd.pid" --innodb-buffer-pool-size=256M --innodb-lock-wait-timeout=900
wait_until 60 "MariaDB answering" mariadb-admin --no-defaults --socket="$work/run/mysqld.sock" ping
alive mariadbd
mariadb --no-defaults --socket="$work/run/mysqld.sock" -u root <<EOF
CREATE DATABASE slurm_acct_db;
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$db_pass';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
EOF

step "munged"
head -c 1024 /dev/urandom >"$work/etc/munge.key"
chmod 400 "$work/etc/munge.key"
start munged munged -F --force --key-file="$work/etc/munge.key" --socket="$work/run/munge.socket" \
	--pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/run/munged.seed"
wait_until 30 "munged answering" sh -c "munge -S '$work/run/munge.socket' -n | unmunge -S '$work/run/munge.socket'"
alive munged

step "slurmdbd"
cat >"$work/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$work/run/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbd_port
SlurmUser=root
PidFile=$work/run/slurmdbd.pid
LogFile=$work/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$db_port
StorageUser=slurm
StoragePass=$db_pass
StorageLoc=slurm_acct_db
EOF
chmod 600 "$work/etc/slurmdbd.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=schedsimci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/run/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=900
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$dbd_port
AccountingStoragePass=$work/run/munge.socket
JobCompType=jobcomp/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=4000 State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=30:00 State=UP
EOF
start slurmdbd slurmdbd -D
wait_until 60 "slurmdbd answering" sacctmgr -n list cluster
alive slurmdbd
sacctmgr -i add cluster schedsimci >/dev/null

step "slurmctld and slurmd"
start slurmctld slurmctld -D -i
wait_until 60 "slurmctld answering" scontrol ping
alive slurmctld
start slurmd slurmd -D -N "$host"
wait_until 60 "node $host idle" sh -c "sinfo -h -n '$host' -o %T | grep -qx idle"
alive slurmd
sinfo

step "sweep as a Slurm array (task 1 fails once), retry, merge"
experiment=$repo/testdata/experiments/kth-lattice.yaml
"$bin" sweep "$experiment" --out "$work/whole" --workers 2 --quiet
marker=$work/fail-task-1-once
touch "$marker"
cat >"$work/bin/schedsim-failing-once" <<EOF
#!/bin/sh
# schedsim, except that array task 1 fails (as a lost node would) while $marker exists.
if [ "\$1" = sweep ] && [ "\${SLURM_ARRAY_TASK_ID:-}" = 1 ] && rm "$marker" 2>/dev/null; then
	echo "array task 1 fails on purpose, once" >&2
	exit 1
fi
exec "$bin" "\$@"
EOF
chmod +x "$work/bin/schedsim-failing-once"
out=$work/sweep
cd "$work"
SCHEDSIM=$work/bin/schedsim-failing-once "$repo/deploy/slurm/submit.sh" "$experiment" "$out" \
	--array=0-3 --cpus-per-task=1 --mem=500M --time=10:00
cd "$repo"
# shellcheck source=/dev/null
. "$out/slurm.env"
first_merge=$merge
queued() { [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
wait_until 300 "array $array finished" sh -c "[ -z \"\$(squeue -h -j $array -o %i)\" ]"
scontrol -o show job "$array" | grep -o 'JobId=[0-9]* ArrayJobId=[0-9]* ArrayTaskId=[0-9]*\|JobState=[A-Z]*' | paste -d' ' - -
state=$(scontrol show job "${array}_1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
[ "$state" = FAILED ] || fail "array task ${array}_1: state $state, want FAILED"
# The scheduler marks the merge's dependency as never satisfied on its next pass.
wait_until 60 "merge $first_merge pending for ever" sh -c \
	"squeue -h -j $first_merge -o '%T %r' | grep -qx 'PENDING DependencyNeverSatisfied'"
echo "merge $first_merge: $(squeue -h -j "$first_merge" -o '%T %r')"
ls "$out/shards"

cd "$work"
SCHEDSIM=$bin "$repo/deploy/slurm/submit.sh" --retry 1 "$out"
cd "$repo"
# shellcheck source=/dev/null
. "$out/slurm.env"
! queued "$first_merge" || fail "merge $first_merge still queued after the retry"
wait_until 300 "retry $retries and merge $merge finished" sh -c "[ -z \"\$(squeue -h -j $retries,$merge -o %i)\" ]"
for job in "$retries" "$merge"; do
	state=$(scontrol show job "$job" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	[ "$state" = COMPLETED ] || { cat "$work"/schedsim-*.out; fail "job $job: state $state, want COMPLETED"; }
done
ls "$out/shards"
for f in summary.csv summary.parquet; do
	cmp "$out/$f" "$work/whole/$f" || fail "$f of the Slurm sweep differs from the single-process sweep's"
done
echo "the Slurm sweep's summary.csv and summary.parquet equal the single-process sweep's"

step "accounting: jobs of several sizes through slurmdbd, sacct dump"
# sbatch options of each job; NCPUS in the dump must be tasks × CPUs per task.
sizes=("-N1 -n1 -t1" "-N1 -n2 -t2" "-n4 -t00:01:30" "-n3 -t5" "-n1 -c2 -t3" "-N1 -n2 -c2 -t10:00" "-n1 -t1 --fail")
ids=() want_cpus=()
for s in "${sizes[@]}"; do
	wrap='sleep 2'
	opts=()
	for o in $s; do
		case $o in --fail) wrap='sleep 2; exit 3' ;; *) opts+=("$o") ;; esac
	done
	ids+=("$(sbatch --parsable --job-name=acct --mem=100M -o /dev/null "${opts[@]}" --wrap "$wrap")")
	n=$(sed -n 's/.*-n\([0-9]*\).*/\1/p' <<<"$s") c=$(sed -n 's/.*-c\([0-9]*\).*/\1/p' <<<"$s")
	want_cpus+=($((n * ${c:-1})))
done
joblist=$(IFS=,; echo "${ids[*]}")
echo "jobs ${ids[*]}"
wait_until 120 "jobs $joblist finished" sh -c "[ -z \"\$(squeue -h -j $joblist -o %i)\" ]"
# slurmctld sends job ends to slurmdbd asynchronously: wait until every job has one.
wait_until 60 "accounting of jobs $joblist" sh -c \
	"[ \"\$(sacct -n -X -P -j $joblist -o End | grep -vc Unknown)\" -eq ${#ids[@]} ]"
dump=$work/sacct.txt
sacct --allocations --parsable2 --format=ALL -j "$joblist" >"$dump"
if [ -n "${SCHEDSIM_CI_ARTIFACTS:-}" ]; then
	mkdir -p "$SCHEDSIM_CI_ARTIFACTS"
	cp "$dump" "$SCHEDSIM_CI_ARTIFACTS/sacct.txt"
	dump_kept=$SCHEDSIM_CI_ARTIFACTS/sacct.txt
elif [ -n "${SCHEDSIM_SLURM_DIR:-}" ]; then
	dump_kept=$dump
else
	dump_kept="$dump (removed with $work at the end; set SCHEDSIM_CI_ARTIFACTS or SCHEDSIM_SLURM_DIR to keep it)"
fi
sacct --allocations -j "$joblist" --format=JobID,Submit,State,NNodes,NCPUS,Timelimit,ReqMem
python3 - "$dump" "$(IFS=,; echo "${ids[*]}")" "$(IFS=,; echo "${want_cpus[*]}")" <<'EOF'
import sys
dump, ids, cpus = sys.argv[1], sys.argv[2].split(","), [int(c) for c in sys.argv[3].split(",")]
lines = open(dump).read().splitlines()
head = lines[0].split("|")
rows = [dict(zip(head, l.split("|"))) for l in lines[1:]]
assert len(rows) == len(ids), f"{dump}: {len(rows)} jobs, want {len(ids)}"
for r, id, want in zip(rows, ids, cpus):
    assert r["JobID"] == id and int(r["NCPUS"]) == want, f"{dump}: job {r['JobID']} NCPUS {r['NCPUS']}, want job {id} NCPUS {want}"
states = [r["State"] for r in rows]
assert states.count("FAILED") == 1 and states.count("COMPLETED") == len(ids) - 1, f"{dump}: states {states}"
print(f"{dump}: {len(rows)} jobs, {len(head)} columns, NCPUS {[int(r['NCPUS']) for r in rows]}")
EOF
echo "sacct dump: $dump_kept"

step "REPLAY OF THE SACCT DUMP (needs the sacct trace reader)"
if ! "$bin" replay --help | grep -q sacct; then
	echo "SKIPPED: schedsim replay --help does not mention sacct (no Slurm accounting reader yet)"
else
	cat >"$work/cluster.yaml" <<EOF
# The one host of slurm.conf: 4 CPUs, RealMemory=4000 (MiB).
name: schedsimci
node_groups:
  - prefix: $host
    count: 1
    resources: {cpu: 4, mem: 4000}
EOF
	"$bin" replay --trace "$dump" --trace-format sacct --cluster "$work/cluster.yaml" \
		--format csv --out "$work/replay" --quiet
	"$bin" convert "$dump" --trace-format sacct --cluster "$work/cluster.yaml" --to "$work/sacct.jsonl" --quiet
	python3 - "$dump" "$work/replay/jobs.csv" "$work/sacct.jsonl" <<'EOF'
import csv, json, sys
dump, jobs_csv, native = sys.argv[1:]
lines = open(dump).read().splitlines()
head = lines[0].split("|")
rows = [dict(zip(head, l.split("|"))) for l in lines[1:]]
# Submit order: Submit (whole seconds), then job id.
want = [r["JobID"] for r in sorted(rows, key=lambda r: (r["Submit"], int(r["JobIDRaw"])))]
cpus = {r["JobID"]: int(r["NCPUS"]) for r in rows}

jobs = list(csv.DictReader(open(jobs_csv)))
assert len(jobs) == len(rows), f"replay: {len(jobs)} jobs, the dump has {len(rows)}"
got = [j["job_id"] for j in sorted(jobs, key=lambda j: (float(j["submit_s"]), int(j["job_id"])))]
assert got == want, f"replay: jobs in submit order {got}, the dump's {want}"
bad = [(j["job_id"], j["state"], j["reason"]) for j in jobs if j["state"] == "rejected"]
assert not bad, f"replay: rejected {bad}"

conv = [json.loads(l) for l in open(native) if l.strip() and not l.startswith("#")]
conv.sort(key=lambda j: (j["submit_s"], int(j["id"])))
assert [j["id"] for j in conv] == want, f"convert: jobs {[j['id'] for j in conv]}, the dump's {want}"
for j in conv:
    n = j.get("tasks", 1) * j.get("request", {}).get("cpu", 1)
    assert n == cpus[j["id"]], f"convert: job {j['id']}: {n} CPUs (tasks × request.cpu), the dump's NCPUS {cpus[j['id']]}"
print(f"replay and convert of the sacct dump: {len(jobs)} jobs, submit order and CPUs as in the dump")
EOF
fi

step "done in $((SECONDS - started)) s"
