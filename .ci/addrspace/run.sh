#!/usr/bin/env bash
# Replays of small traces under a 1 GB address-space limit (ulimit -v
# 1000000, as batch systems set), with the default build (cgo where a C
# compiler is installed, as here: its C constructor holds malloc to one
# arena under a limit) and a static one (CGO_ENABLED=0), five times each
# on two small traces (a Starlark placement script, and conservative
# backfilling of 2,000 KTH-SP2 jobs). Every run must succeed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/schedsim-default" ./cmd/schedsim
CGO_ENABLED=0 go build -o "$tmp/schedsim-static" ./cmd/schedsim
for build in default static; do
  for i in 1 2 3 4 5; do
    (ulimit -v 1000000
     "$tmp/schedsim-$build" replay testdata/native/placement.jsonl --cluster testdata/clusters/racks.yaml \
       --script testdata/scripts/most_free_memory.star --out "$tmp/script-$build-$i" --quiet
     "$tmp/schedsim-$build" replay testdata/experiments/kth-sp2-2000.swf.gz --backfill conservative \
       --out "$tmp/kth-$build-$i" --quiet) </dev/null
  done
done
echo "20 replays under ulimit -v 1000000 (default and static builds): all succeeded"
