#!/bin/bash
# Submit a schedsim sweep as a Slurm array and its merge as a dependent job;
# resubmit one failed array task so that the sweep still finishes.
#
#   deploy/slurm/submit.sh EXPERIMENT.yaml OUT_DIR [sbatch options for the array, e.g. --array=0-15]
#   deploy/slurm/submit.sh --retry TASK_ID OUT_DIR
#
# The array is --array=MIN-MAX[:STEP][%LIMIT] (or a single id), from the options or
# sweep.sbatch's own #SBATCH line; its tasks are the shards, so comma lists, whose task
# ids do not number the shards, are refused. What a retry needs is kept in
# OUT_DIR/slurm.env: the experiment, the shard numbering, the sbatch options, and the
# ids of the array, the retries and the current merge job.
#
# --retry K: task K of the array failed (its merge then waits for ever, as afterok
# can no longer be met). This submits shard K again, as a one-task array --array=K
# that runs the shard of K in the original numbering (not shard 0 of 1); cancels the
# pending merge; and queues a new merge, afterok on the new task and on every job of
# the sweep still queued. Finished runs of shard K are kept, the rest redone.
set -euo pipefail
usage="usage: submit.sh EXPERIMENT.yaml OUT_DIR [sbatch options] | submit.sh --retry TASK_ID OUT_DIR"
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "submit.sh: $*" >&2
	exit 2
}

# absolute prints $1 as an absolute path (the retry may run from elsewhere).
absolute() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$PWD" "$1" ;;
	esac
}

# parse_array sets shard_min, shard_step and shard_count from an --array value.
parse_array() {
	local spec=${1%%\%*} lo hi step=1
	if [[ $spec =~ ^([0-9]+)-([0-9]+)(:([0-9]+))?$ ]]; then
		lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]} step=${BASH_REMATCH[4]:-1}
	elif [[ $spec =~ ^[0-9]+$ ]]; then
		lo=$spec hi=$spec
	else
		die "--array=$1: want MIN-MAX[:STEP][%LIMIT] or one id (the task ids number the shards)"
	fi
	((10#$step >= 1 && 10#$hi >= 10#$lo)) || die "--array=$1: want MIN ≤ MAX and STEP ≥ 1"
	shard_min=$((10#$lo)) shard_step=$((10#$step))
	shard_count=$(((10#$hi - 10#$lo) / 10#$step + 1))
}

# save writes OUT/slurm.env, the state a later --retry reads.
save() {
	{
		echo "# Written by deploy/slurm/submit.sh; read by submit.sh --retry."
		printf 'experiment=%q\n' "$experiment"
		printf 'shard_min=%d shard_step=%d shard_count=%d\n' "$shard_min" "$shard_step" "$shard_count"
		printf 'options=(' && printf '%q ' ${options[@]+"${options[@]}"} && echo ')'
		printf 'array=%q\nretries=%q\nmerge=%q\n' "$array" "$retries" "$merge"
	} >"$state.tmp"
	mv "$state.tmp" "$state"
}

# job_id strips the cluster from sbatch --parsable's "jobid[;cluster]".
job_id() { printf '%s\n' "${1%%;*}"; }

if [ "${1:-}" = --retry ]; then
	[ $# -eq 3 ] || die "$usage"
	task=$2
	out=$(absolute "$3")
	[[ $task =~ ^[0-9]+$ ]] || die "--retry $task: want an array task id"
	state=$out/slurm.env
	[ -f "$state" ] || die "$state: not found (was the sweep submitted with submit.sh to $3?)"
	# shellcheck source=/dev/null
	. "$state"
	offset=$((10#$task - shard_min))
	if ((offset < 0 || offset % shard_step != 0 || offset / shard_step >= shard_count)); then
		die "--retry $task: not a task of the array (ids $shard_min, $((shard_min + shard_step)), … $((shard_min + (shard_count - 1) * shard_step)))"
	fi
	shard=$((offset / shard_step))/$shard_count
	# Every job of the sweep still queued (pending or running), as squeue names
	# them: the array's tasks as ARRAY_K, earlier retries as RETRY_K.
	queued=()
	while read -r id; do
		case $id in
		"${array}_$task") die "--retry $task: ${array}_$task is still queued; wait for it, or scancel ${array}_$task first" ;;
		"${array}"_*) queued+=("$id") ;;
		esac
		for r in $retries; do
			case $id in "${r}"_* | "$r") queued+=("$id") ;; esac
		done
	done < <(squeue -h -r -o %i)
	retry=$(job_id "$(sbatch --parsable ${options[@]+"${options[@]}"} --array="$task" "$here/sweep.sbatch" "$experiment" "$out" "$shard")")
	retries="${retries:+$retries }$retry"
	if [ -n "$merge" ] && [ -n "$(squeue -h -j "$merge" -t PENDING -o %i 2>/dev/null)" ]; then
		scancel "$merge"
	fi
	after=$(IFS=:; echo "${queued[*]+${queued[*]}}")
	merge=$(job_id "$(sbatch --parsable --dependency=afterok:"$retry${after:+:$after}" "$here/merge.sbatch" "$out")")
	save
	echo "shard $shard again as $retry (array task $task), merge $merge (runs once it and the ${#queued[@]} queued tasks succeed); summary: $out/summary.csv"
	exit 0
fi

experiment=${1:?$usage}
out=${2:?$usage}
shift 2
options=()
spec=
while [ $# -gt 0 ]; do
	case $1 in
	--array=*) spec=${1#--array=} ;;
	--array | -a) spec=${2:?"$1 needs a value"}; shift ;;
	-a*) spec=${1#-a} ;;
	*) options+=("$1") ;;
	esac
	shift
done
if [ -z "$spec" ]; then
	spec=$(sed -n 's/^#SBATCH --array=\([^ ]*\).*/\1/p' "$here/sweep.sbatch")
fi
parse_array "$spec"
mkdir -p "$out"
array=$(job_id "$(sbatch --parsable ${options[@]+"${options[@]}"} --array="$spec" "$here/sweep.sbatch" "$experiment" "$out")")
merge=$(job_id "$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch" "$out")")
experiment=$(absolute "$experiment")
state=$(absolute "$out")/slurm.env
retries=
save
echo "sweep array $array, merge $merge (runs once every task succeeded); summary: $out/summary.csv"
echo "a failed task K: deploy/slurm/submit.sh --retry K $out"
