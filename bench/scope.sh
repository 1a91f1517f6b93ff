#!/usr/bin/env bash
# What a scope saves, side by side on the javac workload (120 generated
# classes, as bench/leak.sh): weft leak and weft recrash --jdk-frames over
# every JDK class, and the same with a scope that keeps javac's own classes
# and java.util (--include 'com/sun/tools/javac/**' --include 'java/util/**').
# Each row is the best of RUNS runs of the whole command (weft's own work
# included), after one run that fills the caches (the scoped runs weave a JDK
# of their own: the scope is part of the cache key).
# Usage: bash bench/scope.sh [RUNS]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
javac_workload "$W/src"
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
SCOPE=(--include 'com/sun/tools/javac/**' --include 'java/util/**')
read -r s_w s_c < <(best "${JAVAC[@]}")
read -r l_w l_c < <(best "$W/weft" leak -o "$W/l1" -- "${JAVAC[@]}")
read -r ls_w ls_c < <(best "$W/weft" leak "${SCOPE[@]}" -o "$W/l2" -- "${JAVAC[@]}")
read -r r_w r_c < <(best "$W/weft" recrash --jdk-frames -o "$W/r1" -- "${JAVAC[@]}")
read -r rs_w rs_c < <(best "$W/weft" recrash --jdk-frames "${SCOPE[@]}" -o "$W/r2" -- "${JAVAC[@]}")
printf 'javac, 120 files                        wall ms   cpu ms   vs stock (wall, cpu)\n'
printf 'stock                                   %7d  %7d\n' "$s_w" "$s_c"
printf 'weft leak, every class                  %7d  %7d   %s %s\n' "$l_w" "$l_c" "$(ratio "$s_w" "$l_w")" "$(ratio "$s_c" "$l_c")"
printf 'weft leak, scope                        %7d  %7d   %s %s\n' "$ls_w" "$ls_c" "$(ratio "$s_w" "$ls_w")" "$(ratio "$s_c" "$ls_c")"
printf 'weft recrash --jdk-frames, every class  %7d  %7d   %s %s\n' "$r_w" "$r_c" "$(ratio "$s_w" "$r_w")" "$(ratio "$s_c" "$r_c")"
printf 'weft recrash --jdk-frames, scope        %7d  %7d   %s %s\n' "$rs_w" "$rs_c" "$(ratio "$s_w" "$rs_w")" "$(ratio "$s_c" "$rs_c")"
