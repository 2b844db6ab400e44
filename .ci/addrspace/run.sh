#!/usr/bin/env bash
# A replay of a small trace under a 1 GB address-space limit (ulimit -v
# 1000000, as batch systems set): a static build (CGO_ENABLED=0), the one
# docs/troubleshooting.md recommends under such limits, five times each on
# two small traces (a Starlark placement script, and conservative
# backfilling of 2,000 KTH-SP2 jobs). Every run must succeed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
CGO_ENABLED=0 go build -o "$tmp/schedsim" ./cmd/schedsim
for i in 1 2 3 4 5; do
  (ulimit -v 1000000
   "$tmp/schedsim" replay testdata/native/placement.jsonl --cluster testdata/clusters/racks.yaml \
     --script testdata/scripts/most_free_memory.star --out "$tmp/script-$i" --quiet
   "$tmp/schedsim" replay testdata/experiments/kth-sp2-2000.swf.gz --backfill conservative \
     --out "$tmp/kth-$i" --quiet) </dev/null
done
echo "10 replays under ulimit -v 1000000: all succeeded"
