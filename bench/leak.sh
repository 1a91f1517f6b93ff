#!/usr/bin/env bash
# Figures for the leak tracker (examples/leak), side by side on the javac
# workload (120 generated classes, as bench/profile.sh):
#   stock JDK;
#   weft leak --sample 1: every allocation tracked by weak reference;
#   weft leak: every allocation until they come faster than 500,000 per
#     second, then sampled (the default);
#   weft leak --sample 64: one allocation in 64 tracked from the start.
# All three count every allocation in its calling context (the execution
# advice keeps the context everywhere); they differ in the weak references.
# Each row is the best of RUNS runs of the whole command (weft's own work
# included: serving load-time weaving, the report and its flame graph),
# after one run that fills the caches.
# Usage: bash bench/leak.sh [RUNS]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
javac_workload "$W/src"
interval() { sed -n 's/.*"interval":\([0-9]*\).*/\1/p' "$1/leak.json" | head -1; }
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
read -r s_w s_c < <(best "${JAVAC[@]}")
read -r a_w a_c < <(best "$W/weft" leak --sample 1 -o "$W/l1" -- "${JAVAC[@]}")
read -r d_w d_c < <(best "$W/weft" leak -o "$W/l2" -- "${JAVAC[@]}")
read -r f_w f_c < <(best "$W/weft" leak --sample 64 -o "$W/l3" -- "${JAVAC[@]}")
printf 'javac, 120 files               wall ms   cpu ms   vs stock (wall, cpu)\n'
printf 'stock                          %7d  %7d\n' "$s_w" "$s_c"
printf 'leak: every allocation         %7d  %7d   %s %s\n' "$a_w" "$a_c" "$(ratio "$s_w" "$a_w")" "$(ratio "$s_c" "$a_c")"
printf 'leak: default (adaptive)       %7d  %7d   %s %s\n' "$d_w" "$d_c" "$(ratio "$s_w" "$d_w")" "$(ratio "$s_c" "$d_c")"
printf 'leak: 1 in 64                  %7d  %7d   %s %s\n' "$f_w" "$f_c" "$(ratio "$s_w" "$f_w")" "$(ratio "$s_c" "$f_c")"
echo "the default ended tracking 1 allocation in $(interval "$W/l2")"
head -2 "$W/l1/leak.txt"
