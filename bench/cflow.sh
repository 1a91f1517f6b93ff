#!/usr/bin/env bash
# Figures for cflow: the cost of cflow-guarded advice, side by side in one
# run, on fib(25) (bench/testdata/cflow/Fib.java: ns per fib call, the best
# of 60 in-process rounds after warm-up, so the JIT's steady state):
#   unwoven;
#   unguarded: before(): execution(fib) { hit }   (advice at every call);
#   cflow true: ... && cflow(execution(run))      (one entry per run; a
#     cflow test at every fib call, which passes);
#   cflow false: ... && cflow(execution(other))   (the test at every call
#     fails: what a cflow test costs on its own);
#   cflowbelow(fib): ... && cflowbelow(execution(fib)) (a cflow entry and
#     exit at every fib call as well as the test: the worst case);
# and the last two woven by ajc (AspectJ's CFlowCounter) for comparison.
# Each row is the best of RUNS JVM runs; records (bench/common.sh): a row
# each.
# Usage: bash bench/cflow.sh [RUNS]   (from the repository root; JDK 17, Go and ajc on PATH)
set -euo pipefail
RUNS=${1:-3}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
D=bench/testdata/cflow
. bench/common.sh
bench_begin "$@"

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac --release 8 -d "$W/classes" $D/Fib.java $D/Hits.java
mkdir -p "$W/app" "$W/adv/fib"
mv "$W/classes/fib/Hits.class" "$W/adv/fib/"
mv "$W/classes/fib" "$W/app/"

FIB='execution(static int fib.Fib.fib(int))'
declare -A GUARD=(
  [unguarded]=""
  [cflow-true]=" && cflow(execution(static int fib.Fib.run(int)))"
  [cflow-false]=" && cflow(execution(static int fib.Fib.other(int)))"
  [cflowbelow-fib]=" && cflowbelow($FIB)"
)
ORDER=(unguarded cflow-true cflow-false cflowbelow-fib)
for v in "${ORDER[@]}"; do
  printf 'aspect B {\n    before(): %s%s { fib.Hits.hit(); }\n}\n' "$FIB" "${GUARD[$v]}" > "$W/$v.weft"
  "$W/weft" weave -q -a "$W/$v.weft" --advice-cp "$W/adv" -o "$W/woven-$v" "$W/app"
done
AJRT=/usr/share/java/aspectjrt.jar
for v in cflow-false cflowbelow-fib; do
  printf 'public aspect B {\n    before(): %s%s { fib.Hits.hit(); }\n}\n' "$FIB" "${GUARD[$v]}" > "$W/B.aj"
  ajc -1.8 -inpath "$W/app" -cp "$AJRT:$W/adv" -outjar "$W/ajc-$v.jar" "$W/B.aj" >"$W/ajc.log" 2>&1 || { cat "$W/ajc.log"; exit 1; }
done

nsbest() { # the best ns/call of RUNS runs
  local b=""
  for _ in $(seq 1 "$RUNS"); do
    local x
    x=$(java "$@" fib.Fib | awk '{print $1}')
    if [[ -z $b ]] || awk -v a="$x" -v b="$b" 'BEGIN{exit !(a<b)}'; then b=$x; fi
  done
  echo "$b"
}
HOW="best of $RUNS JVMs, each the best of 60 in-process rounds after warm-up"
uptime
bench_mark
base=$(nsbest -cp "$W/app:$W/adv")
printf '%-34s %8s ns/call   x1.00\n' "unwoven" "$base"
bench_record 'fib(25), before advice at every call' unwoven "$base ns/call" "" "" "$HOW" "java -cp $W/app:$W/adv fib.Fib"
row() { # name, java args...
  local name=$1 x r
  shift
  bench_mark
  x=$(nsbest "$@")
  r=$(awk -v a="$x" -v b="$base" 'BEGIN{printf "%.2f", a/b}')
  printf '%-34s %8s ns/call   x%s\n' "$name" "$x" "$r"
  bench_record 'fib(25), before advice at every call' "$name" "$x ns/call: x$r" "unwoven: $base ns/call" "" "$HOW" "java $* fib.Fib"
}
for v in "${ORDER[@]}"; do
  row "weft $v" -cp "$W/woven-$v:$W/adv"
done
for v in cflow-false cflowbelow-fib; do
  row "ajc $v" -cp "$W/ajc-$v.jar:$AJRT:$W/adv"
done
bench_end
