#!/usr/bin/env bash
# What a scope saves, side by side on the javac workload (120 generated
# classes, as bench/leak.sh): weft leak and weft recrash --jdk-frames over
# every JDK class, and the same with a scope that keeps javac's own classes
# and java.util (--include 'com/sun/tools/javac/**' --include 'java/util/**').
# Each row is the best of RUNS runs of the whole command (weft's own work
# included), after one run that fills the caches (the scoped runs weave a JDK
# of their own: the scope is part of the cache key); records
# (bench/common.sh): a row each.
# Usage: bash bench/scope.sh [RUNS]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
bench_begin "$@"
javac_workload "$W/src"
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
SCOPE=(--include 'com/sun/tools/javac/**' --include 'java/util/**')
HOW="best of $RUNS runs after one that fills the caches, the rows one after another"
row() { # NAME COMMAND...: times COMMAND, a row against the first (stock)
  local name=$1 w c
  shift
  bench_mark
  read -r w c < <(best "$@")
  if [ "$name" = stock ]; then
    s_w=$w s_c=$c
    printf '%-39s %7d  %7d\n' "$name" "$w" "$c"
    bench_record 'javac, 120 files' "$name" "$w ms wall, $c ms CPU" "" "" "$HOW" "$(bench_cmd "$@")"
    return
  fi
  printf '%-39s %7d  %7d   %s %s\n' "$name" "$w" "$c" "$(ratio "$s_w" "$w")" "$(ratio "$s_c" "$c")"
  bench_record 'javac, 120 files' "$name" "$w ms wall, $c ms CPU: $(ratio "$s_w" "$w") wall, $(ratio "$s_c" "$c") CPU" \
    "stock: $s_w ms wall, $s_c ms CPU" "" "$HOW" "$(bench_cmd "$@")"
}
printf 'javac, 120 files                        wall ms   cpu ms   vs stock (wall, cpu)\n'
row stock "${JAVAC[@]}"
row 'weft leak, every class' "$W/weft" leak -o "$W/l1" -- "${JAVAC[@]}"
row 'weft leak, scope' "$W/weft" leak "${SCOPE[@]}" -o "$W/l2" -- "${JAVAC[@]}"
row 'weft recrash --jdk-frames, every class' "$W/weft" recrash --jdk-frames -o "$W/r1" -- "${JAVAC[@]}"
row 'weft recrash --jdk-frames, scope' "$W/weft" recrash --jdk-frames "${SCOPE[@]}" -o "$W/r2" -- "${JAVAC[@]}"
bench_end
