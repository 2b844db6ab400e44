#!/usr/bin/env bash
# The worked example of docs/bring-your-own-scheduler.md: the Python EASY
# scheduler (Debian python3-zmq) drives a replay of the embedded KTH-SP2
# log; its starts, hence its mean wait, equal schedsim's own EASY.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/schedsim" ./cmd/schedsim
"$tmp/schedsim" replay --quiet --format csv --out "$tmp/own"
"$tmp/schedsim" replay --format csv --out "$tmp/python" \
	--scheduler-command "/usr/bin/python3 docs/examples/batsim_easy.py --count --endpoint tcp://127.0.0.1:{port}"
tail -1 "$tmp/python/scheduler.log"
col() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$1/summary.csv"; }
own=$(col "$tmp/own" mean_wait_s)
python=$(col "$tmp/python" mean_wait_s)
echo "mean wait: schedsim's easy $own s, the Python scheduler $python s"
[ "$own" = "$python" ] || { echo "the Python scheduler's schedule differs from schedsim's easy"; exit 1; }
