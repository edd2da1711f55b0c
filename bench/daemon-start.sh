#!/usr/bin/env bash
# One daemon start for farm-bench: the build in $1 (a dist directory) started in a fresh
# NIGHTSHIFT_HOME with the default config, timed until its log says "memory loaded", then stopped.
#   farm-bench -n 10 --vs 'bench/daemon-start.sh <other build>/dist' -- bench/daemon-start.sh dist
set -euo pipefail
home=$(mktemp -d /tmp/ns-start.XXXXXX)
trap 'rm -rf "$home"' EXIT
NIGHTSHIFT_HOME=$home node "$1/cli.js" daemon >"$home/log" 2>&1 &
pid=$!
until grep -q '"memory loaded"' "$home/log" 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { cat "$home/log" >&2; exit 1; }
  sleep 0.01
done
kill "$pid"
wait "$pid" 2>/dev/null || true
