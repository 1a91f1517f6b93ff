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
# With BASE, a git revision or a source tree, the default of that weft too
# (its row marked BASE): before and after in the same run.
# ROWS (environment) chooses the rows after stock, by name, default
# "every default 64".
# The commands run interleaved, one run of each a round, RUNS rounds after
# a warm-up round that fills the caches (bench/common.sh's rounds): each
# row is the best wall and CPU time of the whole command (weft's own work
# included: serving load-time weaving, the report and its flame graph) and
# the median of the rounds' CPU ratios to stock (the machine's load drifts:
# a round's commands share it). WEFT_BENCH_CACHE names a cache directory to
# keep between runs (a woven JDK takes minutes); the BASE weft is built
# with -trimpath, the same binary from one run to the next, so its woven
# JDK is kept too. Records (bench/common.sh): a row each.
# Usage: [ROWS="default"] bash bench/leak.sh [RUNS [BASE]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
BASE=${2:-}
ROWS=${ROWS:-every default 64}
. bench/common.sh
bench_begin "$@"
bench_start "$BASE"
javac_workload "$W/src"
interval() { sed -n 's/.*"interval":\([0-9]*\).*/\1/p' "$1/leak.json" | head -1; }
uptime
names=(stock) cmds=(javac)
[ -n "$BASE" ] && { names+=("BASE $BASE: default"); cmds+=("$W/weft-base leak -o $W/lb -- javac"); }
for r in $ROWS; do
  case $r in
  every) names+=('leak: every allocation'); cmds+=("$W/weft leak --sample 1 -o $W/l1 -- javac") ;;
  default) names+=('leak: default (adaptive)'); cmds+=("$W/weft leak -o $W/l2 -- javac") ;;
  64) names+=('leak: 1 in 64'); cmds+=("$W/weft leak --sample 64 -o $W/l3 -- javac") ;;
  *) echo "ROWS: unknown row $r (every, default, 64)" >&2; exit 2 ;;
  esac
done
ROUND_CMD="-d $W/out $(echo "$W"/src/gen/*.java)"
bench_mark
mapfile -t rows < <(rounds "${cmds[@]}")
read -r s_w s_c _ <<<"${rows[0]}"
printf 'javac, 120 files               wall ms   cpu ms   vs stock: wall (best), cpu (median of %d rounds)\n' "$RUNS"
printf '%-30s %7d  %7d\n' stock "$s_w" "$s_c"
HOW="best wall and CPU of $RUNS interleaved rounds after a warm-up; CPU ratio the median of the rounds'"
bench_record 'javac, 120 files' stock "$s_w ms wall, $s_c ms CPU" "" "" "$HOW" "${cmds[0]} $ROUND_CMD"
for i in $(seq 1 $((${#cmds[@]} - 1))); do
  read -r w c r <<<"${rows[i]}"
  printf '%-30s %7d  %7d   %s x%s\n' "${names[i]}" "$w" "$c" "$(ratio "$s_w" "$w")" "$r"
  bench_record 'javac, 120 files' "${names[i]}" "$w ms wall, $c ms CPU: $(ratio "$s_w" "$w") wall, x$r CPU" \
    "stock: $s_w ms wall, $s_c ms CPU" "" "$HOW" "${cmds[i]} $ROUND_CMD"
done
uptime
bench_end
for d in lb l1 l2 l3; do
  [ -f "$W/$d/leak.json" ] && echo "$d: the run ended tracking 1 allocation in $(interval "$W/$d")"
  [ -f "$W/$d/leak.txt" ] && head -2 "$W/$d/leak.txt"
done
true
