#!/usr/bin/env bash
# Load-time weaving figures, side by side in one run (docs/ltw.md):
# a program (bench/testdata/ltw/Main.java) loads N generated classes from a
# jar that is not on its class path, through a URLClassLoader of its own,
# and runs each once; an aspect counts the executions of their methods
# (3 per class). RUNS rounds run every mode once each (a busy spell of the
# machine hits all modes alike); each mode's best is kept.
#
#   stock         the program on the stock JDK, nothing woven
#   weft AOT      weft run --load-time=false on the jar woven by weft weave
#   weft AOT+LTW  weft run on the jar woven by weft weave (each class, not
#                 its sister, goes to the server and comes back as it is)
#   weft cold     weft run on the plain jar, the load-time cache emptied
#   weft warm     weft run on the plain jar, the load-time cache from before
#   base cold     with BASE=REV: weft cold, weft built from git revision REV
#   base warm     with BASE=REV: weft warm, weft built from git revision REV
#                 (before and after a change, side by side in one run)
#   ajc AOT       stock JDK, the jar woven by ajc -inpath
#   ajc LTW       stock JDK, -javaagent:aspectjweaver.jar (META-INF/aop.xml)
#
# "loop" is the program's own time for loading and running the N classes;
# "wall" the whole command's; "cpu" its user + system CPU time, weft's and
# the JVM's (less sensitive to a busy machine than wall time). The cost per
# class of load-time weaving is (LTW - AOT) / N, in loop and in CPU time. weft's peak RSS is the weft process's own
# (it serves the JVM; from --ltw-report, with its own CPU time and the time
# it spent answering); AspectJ weaves inside the JVM, whose peak RSS is
# shown against the stock JVM's. Records (bench/common.sh): a mode each,
# and the cost per class.
#
# Usage: [BASE=REV] bash bench/ltw.sh [RUNS] [N]   (repository root; JDK 17, Go, Debian's aspectj)
set -euo pipefail
RUNS=${1:-3}
N=${2:-4000}
T=bench/testdata/ltw
W=$(mktemp -d /tmp/weft-ltw-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
AJ=/usr/share/java
. bench/common.sh
bench_begin "$@"

go build -o "$W/weft" ./cmd/weft
if [[ -n ${BASE:-} ]]; then
  mkdir -p "$W/base-src"
  git archive "$BASE" | tar -x -C "$W/base-src"
  (cd "$W/base-src" && go build -o "$W/weft-base" ./cmd/weft)
fi
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java
javac -d "$W/app" $T/Main.java $T/Task.java

ltw_plugin "$N" # $W/plugin.jar
echo "$N generated classes, $(du -k "$W/plugin.jar" | cut -f1) KB jar"

# Ahead of time: weft weave and ajc -inpath.
"$W/weft" weave -q -a $T/count.weft --advice-cp "$W/adv" -cp "$W/app" -o "$W/weft-woven.jar" "$W/plugin.jar"
JAVA_OPTS=-Xmx1g ajc -1.8 -cp "$AJ/aspectjrt.jar:$W/app" -inpath "$W/plugin.jar" -outjar "$W/ajc-woven.jar" $T/Count.aj 2>&1 | grep -v '^$' || true
# The aspect alone, for the agent, with META-INF/aop.xml.
ajc -1.8 -cp "$AJ/aspectjrt.jar:$W/app" -d "$W/aspect" $T/Count.aj
mkdir -p "$W/aspect/META-INF" && cp $T/aop.xml "$W/aspect/META-INF/aop.xml"

WEFT="$W/weft run -a $T/count.weft --advice-cp $W/adv --modules java.base --Xlint ignore --ltw-report $W/report.json"
# The woven java.base, once (not measured).
$WEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" 1 >/dev/null 2>&1
if [[ -n ${BASE:-} ]]; then
  BASEWEFT="$W/weft-base ${WEFT#"$W/weft "}"
  $BASEWEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" 1 >/dev/null 2>&1
fi

# once MODE PREP CMD...: one run of CMD (PREP before it), keeping MODE's
# best loop, wall and CPU times (ms) so far, and its last run's hit count,
# peak RSS (KB), command and, for weft, its own peak RSS, CPU and serving
# time.
declare -A BL BW BC RSS HITS WEFTLINE CMD
MODES=()
once() {
  local mode=$1 prep=$2
  shift 2
  [[ -n ${BL[$mode]:-} ]] || { MODES+=("$mode"); BL[$mode]=999999 BW[$mode]=999999 BC[$mode]=999999; }
  eval "$prep"
  CMD[$mode]=$*
  [[ $prep == : ]] || CMD[$mode]="$prep; $*"
  rm -f "$W/report.json"
  /usr/bin/time -o "$W/time" -f '%e %M %U %S' "$@" >"$W/out" 2>"$W/err"
  [[ $(cat "$W/out") == "$(cat "$W/expected")" ]] || { echo "$mode: output differs" >&2; cat "$W/err" >&2; exit 1; }
  local l w c rss
  l=$(sed -n 's/^loop: [0-9]* classes in \([0-9]*\) ms$/\1/p' "$W/err")
  read -r w rss c < <(tail -1 "$W/time" | awk '{printf "%d %d %d\n", $1*1000, $2, ($3+$4)*1000}')
  (( l < BL[$mode] )) && BL[$mode]=$l
  (( w < BW[$mode] )) && BW[$mode]=$w
  (( c < BC[$mode] )) && BC[$mode]=$c
  RSS[$mode]=$rss
  HITS[$mode]=$(grep -o 'count: [0-9]* hits' "$W/err" | awk '{print $2}' || true)
  if [[ -f $W/report.json ]]; then
    local wrss serve wcpu summary
    wrss=$(sed -n 's/.*"peakRSSKB": \([0-9]*\).*/\1/p' "$W/report.json")
    serve=$(sed -n 's/.*"seconds": \([0-9.e-]*\).*/\1/p' "$W/report.json")
    wcpu=$(sed -n 's/.*"cpuSeconds": \([0-9.e-]*\).*/\1/p' "$W/report.json")
    summary=$(grep '^weft: load-time weaving:' "$W/err" | sed 's/^weft: load-time weaving: //' || true)
    WEFTLINE[$mode]=$(printf '  weft: %d MB, %s ms cpu, %s ms serving (%s)' $((wrss / 1024)) \
      "$(awk -v s="$wcpu" 'BEGIN{printf "%.0f", s*1000}')" "$(awk -v s="$serve" 'BEGIN{printf "%.0f", s*1000}')" "$summary")
  fi
}

java -cp "$W/app" bench.Main "$W/plugin.jar" "$N" >"$W/expected" 2>/dev/null
uptime
bench_mark
# RUNS rounds, each running every mode once, so that a busy spell of the
# machine hits all modes alike; the best of each mode is kept.
for _ in $(seq 1 "$RUNS"); do
  once stock : java -cp "$W/app" bench.Main "$W/plugin.jar" "$N"
  once "weft AOT" : $WEFT --load-time=false -- java -cp "$W/app" bench.Main "$W/weft-woven.jar" "$N"
  once "weft AOT+LTW" : $WEFT -- java -cp "$W/app" bench.Main "$W/weft-woven.jar" "$N"
  once "weft cold" 'rm -rf "$WEFT_CACHE"/ltw-*' $WEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" "$N"
  once "weft warm" : $WEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" "$N"
  if [[ -n ${BASE:-} ]]; then
    once "base cold" 'rm -rf "$WEFT_CACHE"/ltw-*' $BASEWEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" "$N"
    once "base warm" : $BASEWEFT -- java -cp "$W/app" bench.Main "$W/plugin.jar" "$N"
  fi
  once "ajc AOT" : java -cp "$W/app:$AJ/aspectjrt.jar" bench.Main "$W/ajc-woven.jar" "$N"
  once "ajc LTW" : java -javaagent:"$AJ/aspectjweaver.jar" -cp "$W/app:$W/aspect" bench.Main "$W/plugin.jar" "$N"
done
uptime
for mode in "${MODES[@]}"; do
  printf '%-13s loop %6d ms  wall %6d ms  cpu %6d ms  hits %6s  peak RSS %4d MB%s\n' "$mode" "${BL[$mode]}" "${BW[$mode]}" \
    "${BC[$mode]}" "${HITS[$mode]:--}" $((RSS[$mode] / 1024)) "${WEFTLINE[$mode]:-}"
done

HOW="best of $RUNS rounds, each running every mode once"
for mode in "${MODES[@]}"; do
  bench_record "$N classes loaded by the program" "$mode" \
    "loop ${BL[$mode]} ms, wall ${BW[$mode]} ms, CPU ${BC[$mode]} ms, peak RSS $((RSS[$mode] / 1024)) MB${WEFTLINE[$mode]:+; ${WEFTLINE[$mode]#  }}" \
    "" "" "$HOW" "${CMD[$mode]}"
done

per() { awk -v a="$1" -v b="$2" -v n="$N" 'BEGIN{printf "%6.3f", (a-b)/n}'; }
perclass() { # NAME LTW AOT: the cost per class of mode LTW over mode AOT, printed and recorded
  local loop cpu
  loop=$(per "${BL[$2]}" "${BL[$3]}")
  cpu=$(per "${BC[$2]}" "${BC[$3]}")
  printf '  %-39s%s  %s\n' "$1" "$loop" "$cpu"
  bench_record "load-time weaving: the cost per class, (LTW - AOT) / $N" "$1" "${loop// /} ms loop, ${cpu// /} ms CPU" \
    "mode $2 over mode $3" "" "$HOW; the difference of the two modes' bests" "${CMD[$2]}"
}
echo "added per class, ms: (LTW - AOT) / $N      loop    cpu"
perclass 'weft, cold cache' 'weft cold' 'weft AOT'
perclass 'weft, warm cache' 'weft warm' 'weft AOT'
perclass 'weft, classes already woven' 'weft AOT+LTW' 'weft AOT'
if [[ -n ${BASE:-} ]]; then
  perclass "weft of $BASE, cold cache" 'base cold' 'weft AOT'
  perclass "weft of $BASE, warm cache" 'base warm' 'weft AOT'
fi
perclass "AspectJ's load-time weaver" 'ajc LTW' 'ajc AOT'
bench_end
