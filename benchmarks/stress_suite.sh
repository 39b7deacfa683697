#!/usr/bin/env bash
# The suite under stress: the README's test command RUNS times in a row on a fresh clone
# of this repository, with both cores kept busy by two `yes` loads, as CI's shared
# machine may be. Prints one line per run (exit status, wall seconds, the CPU seconds
# (user + sys) the run used, pytest's summary) and a tally; exits 1 if any run failed.
# A failure here is a bug to fix, never to retry.
#
#   bash benchmarks/stress_suite.sh [RUNS] [CLONE_DIR]    (defaults: 20, ../stress-clone)
#
# The clone sits beside this repository by default, so that the tests that read
# ../shared find it there as they do here (elsewhere they skip).
set -uo pipefail
runs=${1:-20}
repo=$(cd "$(dirname "$0")/.." && pwd)
clone=${2:-$(dirname "$repo")/stress-clone}

rm -rf "$clone"
git clone -q "$repo" "$clone" || exit 2
cd "$clone" || exit 2
python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' || exit 2

yes > /dev/null & load1=$!
yes > /dev/null & load2=$!
trap 'kill $load1 $load2 2>/dev/null' EXIT

green=0
TIMEFORMAT='%U %S'
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  # bash's `time` counts the CPU of pytest, its workers and all they started and reaped.
  { time { .venv/bin/python -m pytest -p no:cacheprovider > "run-$i.log" 2>&1; }; } 2> "cpu-$i.txt"
  status=$?
  took=$(( $(date +%s) - start ))
  cpu=$(awk '{printf "%d", $1 + $2}' "cpu-$i.txt")
  summary=$(tail -n 1 "run-$i.log")
  [ "$status" -eq 0 ] && green=$((green + 1))
  printf 'run %2d: exit %d, %4d s wall, %4d s CPU, %s\n' "$i" "$status" "$took" "$cpu" "$summary"
done
echo "green: $green/$runs (logs in $clone/run-*.log)"
[ "$green" -eq "$runs" ]
