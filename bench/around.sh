#!/usr/bin/env bash
# Figures for around advice, side by side: bench/testdata/Work.java's
# fib(30) and 1M small objects, unwoven, with around advice that counts and
# proceeds once at every method execution and constructor call woven by
# weft (bench/testdata/around.weft) and by ajc (bench/testdata/Around.aj),
# and with weft's before advice counting at the same join points
# (bench/testdata/around-before.weft, for scale). With BASE, a git revision
# or a source tree, the weft of that revision weaves around.weft too (with
# its own runtime), in the same run: before and after, side by side.
# Each figure is the best round (ns) of the second half of ROUNDS rounds,
# best of RUNS JVMs, the JVMs of the rows taking turns; ratios are to the
# unwoven run. CLOCK=cpu times rounds by the thread's CPU time (steadier on
# a loaded machine) instead of the wall clock. Records (bench/common.sh): a
# row and workload each.
# Usage: [CLOCK=cpu] bash bench/around.sh [RUNS [ROUNDS [BASE]]]   (from the repository root)
set -euo pipefail
RUNS=${1:-3}
ROUNDS=${2:-30}
BASE=${3:-}
CLOCK=${CLOCK:-wall}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
AJRT=/usr/share/java/aspectjrt.jar

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
bench_begin "$@"
"$W/weft" runtime -o "$W/weft-rt.jar"
javac --release 8 -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java bench/testdata/Proceed1.java
javac --release 8 -g -d "$W/plain" bench/testdata/Work.java
"$W/weft" weave -q -a bench/testdata/around.weft --advice-cp "$W/adv" -o "$W/around" "$W/plain"
"$W/weft" weave -q -a bench/testdata/around-before.weft --advice-cp "$W/adv" -o "$W/before" "$W/plain"
ajc -1.8 -inpath "$W/plain" -cp "$AJRT:$W/adv" -d "$W/ajc" bench/testdata/Around.aj

# The rows: a name and a class path each.
names=(unwoven 'weft around' 'ajc 1.9 around' 'weft before')
cps=("$W/plain" "$W/around:$W/adv:$W/weft-rt.jar" "$W/ajc:$W/adv:$AJRT" "$W/before:$W/adv:$W/weft-rt.jar")
if [ -n "$BASE" ]; then
  build_base "$BASE"
  "$W/weft-base" runtime -o "$W/weft-rt-base.jar"
  "$W/weft-base" weave -q -a bench/testdata/around.weft --advice-cp "$W/adv" -o "$W/around-base" "$W/plain"
  names=("${names[@]:0:2}" "weft around, BASE $BASE" "${names[@]:2}")
  cps=("${cps[@]:0:2}" "$W/around-base:$W/adv:$W/weft-rt-base.jar" "${cps[@]:2}")
fi

clock=()
[ "$CLOCK" = cpu ] && clock=(cpu)
uptime
bench_mark
declare -A best
for w in fib alloc; do
  for _ in $(seq 1 "$RUNS"); do
    for i in "${!cps[@]}"; do
      ns=$(java -Dcount.quiet=1 -cp "${cps[$i]}" work.Work "$w" "$ROUNDS" "${clock[@]}" | awk '{print $2}')
      k=$w.$i
      if [ -z "${best[$k]:-}" ] || (( ns < best[$k] )); then best[$k]=$ns; fi
    done
  done
done
printf '%-40s %18s   %18s\n' "best round ($CLOCK), x unwoven" 'fib(30)' '1M small objects'
for i in "${!cps[@]}"; do
  printf '%-40s' "${names[$i]}"
  for w in fib alloc; do
    awk -v ns="${best[$w.$i]}" -v p="${best[$w.0]}" 'BEGIN{printf " %9.2f ms (x%.2f)", ns/1e6, ns/p}'
  done
  echo
done
uptime
HOW="best round ($CLOCK clock) of the second half of $ROUNDS in-process rounds, best of $RUNS JVMs, the rows' JVMs taking turns"
declare -A TITLE=([fib]='fib(30)' [alloc]='1 M small objects')
for w in fib alloc; do
  for i in "${!cps[@]}"; do
    fig=$(awk -v ns="${best[$w.$i]}" -v p="${best[$w.0]}" 'BEGIN{printf "%.2f ms", ns/1e6; if (ns != p) printf ": x%.2f", ns/p}')
    ref=""
    ((i > 0)) && ref=$(awk -v p="${best[$w.0]}" 'BEGIN{printf "unwoven: %.2f ms", p/1e6}')
    bench_record "${TITLE[$w]}, around advice proceeding once" "${names[$i]}" "$fig" "$ref" \
      "$([[ ${names[$i]} == 'weft around' ]] && echo "no more than ajc's")" "$HOW" \
      "java -Dcount.quiet=1 -cp ${cps[$i]} work.Work $w $ROUNDS ${clock[*]}"
  done
done
bench_end
