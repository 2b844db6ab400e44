#!/bin/bash
# Submit a schedsim sweep as a Slurm array and its merge as a dependent job.
#   deploy/slurm/submit.sh experiment.yaml sweep-out [extra sbatch options for the array, e.g. --array=0-15]
set -euo pipefail
EXPERIMENT=${1:?usage: submit.sh EXPERIMENT.yaml OUT_DIR [sbatch options]}
OUT=${2:?usage: submit.sh EXPERIMENT.yaml OUT_DIR [sbatch options]}
shift 2
here=$(dirname "$0")
array=$(sbatch --parsable "$@" "$here/sweep.sbatch" "$EXPERIMENT" "$OUT")
array=${array%%;*}   # --parsable prints jobid[;cluster]
merge=$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch" "$OUT")
echo "sweep array $array, merge $merge (runs once every task succeeded); summary: $OUT/summary.csv"
