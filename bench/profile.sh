#!/usr/bin/env bash
# Figures for the calling-context profiler (examples/profile), side by side
# on one javac workload (120 generated classes, as bench/jdk.sh):
#   stock JDK;
#   the counting aspect (examples/count) woven everywhere;
#   weft profile --no-time (calls and allocations per calling context);
#   weft profile (and wall time, calibrated and compensated).
# Each row is the best of RUNS runs of the whole command (weft's own work
# included: serving load-time weaving, writing the profile and its flame
# graph), after one run that fills the caches.
# Usage: bash bench/profile.sh [RUNS]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java

# A javac workload: 120 generated classes with generics, lambdas, streams.
. bench/common.sh
javac_workload "$W/src"
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
read -r s_w s_c < <(best "${JAVAC[@]}")
read -r c_w c_c < <(best "$W/weft" run -a examples/count/count.weft --advice-cp "$W/adv" -- "${JAVAC[@]}")
read -r n_w n_c < <(best "$W/weft" profile --no-time --top 0 -o "$W/p1" -- "${JAVAC[@]}")
read -r t_w t_c < <(best "$W/weft" profile --top 0 -o "$W/p2" -- "${JAVAC[@]}")
printf 'javac, 120 files            wall ms   cpu ms   vs stock (wall, cpu)\n'
printf 'stock                       %7d  %7d\n' "$s_w" "$s_c"
printf 'counting aspect everywhere  %7d  %7d   %s %s\n' "$c_w" "$c_c" "$(ratio "$s_w" "$c_w")" "$(ratio "$s_c" "$c_c")"
printf 'profile: calls + allocs     %7d  %7d   %s %s\n' "$n_w" "$n_c" "$(ratio "$s_w" "$n_w")" "$(ratio "$s_c" "$n_c")"
printf 'profile: + wall time        %7d  %7d   %s %s\n' "$t_w" "$t_c" "$(ratio "$s_w" "$t_w")" "$(ratio "$s_c" "$t_c")"
cat "$W/p2/summary.txt"
