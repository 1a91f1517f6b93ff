#!/usr/bin/env bash
# Figures for around advice, side by side: bench/testdata/Work.java's
# fib(30) and 1M small objects, unwoven, with around advice that counts and
# proceeds once at every method execution and constructor call woven by
# weft (bench/testdata/around.weft) and by ajc (bench/testdata/Around.aj),
# and with weft's before advice counting at the same join points
# (bench/testdata/around-before.weft, for scale). Each figure is the best round (ns)
# of the second half of ROUNDS rounds, best of RUNS JVMs; ratios are to the
# unwoven run.
# Usage: bash bench/around.sh [RUNS] [ROUNDS]   (from the repository root)
set -euo pipefail
RUNS=${1:-3}
ROUNDS=${2:-30}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
AJRT=/usr/share/java/aspectjrt.jar

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac --release 8 -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java bench/testdata/Proceed1.java
javac --release 8 -g -d "$W/plain" bench/testdata/Work.java
"$W/weft" weave -q -a bench/testdata/around.weft --advice-cp "$W/adv" -o "$W/around" "$W/plain"
"$W/weft" weave -q -a bench/testdata/around-before.weft --advice-cp "$W/adv" -o "$W/before" "$W/plain"
ajc -1.8 -inpath "$W/plain" -cp "$AJRT:$W/adv" -d "$W/ajc" bench/testdata/Around.aj

best() { # the best ns of RUNS JVMs: best WORKLOAD CLASSPATH
  local b=999999999999
  for _ in $(seq 1 "$RUNS"); do
    local ns
    ns=$(java -Dcount.quiet=1 -cp "$2" work.Work "$1" "$ROUNDS" | awk '{print $2}')
    (( ns < b )) && b=$ns
  done
  echo "$b"
}
uptime
for w in fib alloc; do
  p=$(best $w "$W/plain")
  a=$(best $w "$W/around:$W/adv:$W/weft-rt.jar")
  j=$(best $w "$W/ajc:$W/adv:$AJRT")
  b=$(best $w "$W/before:$W/adv:$W/weft-rt.jar")
  echo "$w $p $a $j $b" | awk '{printf "%-6s unwoven %6.1f ms   weft around %6.1f ms (x%.2f)   ajc around %6.1f ms (x%.2f)   weft before %6.1f ms (x%.2f)\n",
    $1, $2/1e6, $3/1e6, $3/$2, $4/1e6, $4/$2, $5/1e6, $5/$2}'
done
