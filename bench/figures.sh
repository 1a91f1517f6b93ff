#!/usr/bin/env bash
# Writes docs/figures.md whole from the benchmark scripts' records: runs
# every script below at its full round count, each writing its records to
# $WEFT_BENCH_OUT (default ~/.cache/weft-bench; bench/common.sh's
# bench_record), then renders every record there as the page (go run
# ./bench/figures). A script's run replaces its last run's records; the
# page shows the last run of each.
#   -c          collect only: write the page from the records already there
#   -o FILE     write FILE instead of docs/figures.md
#   SCRIPT...   run only these scripts (tools, jdk, ...), then write the page
#               from all the records
# RUNS (environment) replaces every script's round count (RUNS=1: each in
# its smallest form, to check that they work; its rows say so). The scripts
# share one weft cache ($WEFT_BENCH_CACHE, else a directory removed at
# exit), so that each tool's JDK is woven once in the whole run.
# Usage: [RUNS=N] bash bench/figures.sh [-o FILE] [-c | SCRIPT...]   (from the repository root; what the scripts need)
set -euo pipefail

# The full run: a script, its round count and its other arguments each
# (tools.sh runs around.sh, with its round count and 30 rounds in a JVM).
FULL=(
  'suite.sh 3'
  'PARTS=split suite.sh 2'
  'tools.sh 5'
  'start.sh 5'
  'jdk.sh 5'
  'ONLY=weave jdk.sh 5'
  'profile.sh 3'
  'leak.sh 3'
  'recrash.sh 3'
  'cflow.sh 3'
  'ltw.sh 3 4000'
  'ataspectj.sh 5 4000'
  'jfr.sh 3'
  'scope.sh 3'
)
OUT=${WEFT_BENCH_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/weft-bench}
export WEFT_BENCH_OUT=$OUT

wanted() { # SCRIPT: whether the command line names it (or names none)
  local s
  ((${#ONLY_SCRIPTS[@]} == 0)) && return 0
  for s in "${ONLY_SCRIPTS[@]}"; do
    [[ $1 == "$s.sh" || $1 == "$s" ]] && return 0
  done
  return 1
}

run_script() { # "[VAR=VALUE...] SCRIPT RUNS [ARGS...]": runs it as bash bench/SCRIPT
  local words=() envs=() script runs
  read -ra words <<<"$1"
  while [[ ${words[0]} == *=* ]]; do
    envs+=("${words[0]}")
    words=("${words[@]:1}")
  done
  script=${words[0]} runs=${RUNS:-${words[1]}}
  wanted "$script" || return 0
  echo "== ${envs[*]:+${envs[*]} }bash bench/$script $runs ${words[*]:2}"
  env "${envs[@]}" bash "bench/$script" "$runs" "${words[@]:2}"
}

usage() {
  echo "usage: [RUNS=N] bash bench/figures.sh [-o FILE] [-c | SCRIPT...]" >&2
  exit 2
}
COLLECT=false
PAGE=docs/figures.md
ONLY_SCRIPTS=()
while (($#)); do
  case $1 in
  -c) COLLECT=true ;;
  -o) (($# > 1)) || usage; PAGE=$2; shift ;;
  -*) usage ;;
  *) ONLY_SCRIPTS+=("$1") ;;
  esac
  shift
done
if ! $COLLECT; then
  if [ -z "${WEFT_BENCH_CACHE:-}" ]; then
    WEFT_BENCH_CACHE=$(mktemp -d /tmp/weft-figures-XXXXXX)
    trap 'rm -rf "$WEFT_BENCH_CACHE"' EXIT
  fi
  export WEFT_BENCH_CACHE
  for s in "${FULL[@]}"; do
    run_script "$s"
  done
fi
go run ./bench/figures -o "$PAGE" "$OUT"
echo "$PAGE: from the records in $OUT"
