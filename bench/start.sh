#!/usr/bin/env bash
# The tools' fixed cost: what each adds to a run however short it is (its
# JVM's start on the woven runtime image, load-time weaving served, the
# report at exit, weft's own process), side by side in one run:
#   hello: a class printing one line, stock and under weft recrash, weft
#     profile --no-time, weft profile (wall time sampled) and weft leak;
#   javac -version: the javac launcher's start (jdk.compiler's classes,
#     the module graph), stock and under weft profile --no-time and weft
#     leak;
#   a one-second JVM (javac on 20 files) under weft run, an aspect
#     advising nothing (the fixed cost; goal x1.3 wall) and advice doing
#     nothing everywhere;
#   hello under weft run with the counting aspect, and weft's own process
#     time in it (its CPU time as --ltw-report gives it; goal 60 ms).
# Each section's commands run interleaved, RUNS rounds after a warm-up
# round (common.sh's section: medians of the whole command's wall and
# user+sys CPU). With BASE, a git revision or a source tree, the same
# commands with that weft in the same rounds (rows marked BASE). Records
# (bench/common.sh): each section's rows.
# WEFT_BENCH_CACHE names a cache directory kept between runs (each tool's
# woven JDK takes a minute or two to make, per weft binary).
# Usage: [WEFT_BENCH_CACHE=DIR] bash bench/start.sh [RUNS [BASE]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-5}
BASE=${2:-}
. bench/common.sh
bench_begin "$@"
bench_start "$BASE"
mkdir -p "$W/hello"
cat >"$W/hello/Hello.java" <<'JAVA'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
javac -d "$W/hello" "$W/hello/Hello.java"
HELLO="java -cp $W/hello Hello"

uptime
[ -n "$BASE" ] && echo "BASE: the weft of $BASE"
section 'hello world' \
  stock "$HELLO" \
  'recrash' "$W/weft recrash -o $W/r -- $HELLO" \
  'profile --no-time' "$W/weft profile --no-time --top 0 -o $W/p1 -- $HELLO" \
  'profile' "$W/weft profile --top 0 -o $W/p2 -- $HELLO" \
  'leak' "$W/weft leak -o $W/l -- $HELLO"
section 'javac -version' \
  stock 'javac -version' \
  'profile --no-time' "$W/weft profile --no-time --top 0 -o $W/p3 -- javac -version" \
  'leak' "$W/weft leak -o $W/l2 -- javac -version"

# A one-second JVM, javac compiling 20 of the javac workload's files, warm:
# under weft run with an aspect that advises nothing (weft's fixed cost:
# its process, the JVM's start on the woven runtime image, load-time
# weaving served) and with advice that does nothing at every execution
# and allocation (bench/testdata/suite/nothing.weft: weaving's cost too).
javac_workload "$W/src"
javac -d "$W/nothing" bench/testdata/suite/Nothing.java
printf '%s\n' 'aspect Idle {' '    before(): execution(* weft.bench.Never.never(..)) { weft.bench.Nothing.hit(joinPointId); }' '}' >"$W/idle.weft"
JAVAC20="javac -d $W/o20 $(seq -f "$W/src/gen/C%g.java" 1 20 | tr '\n' ' ')"
section 'a one-second JVM: javac on 20 files, warm' \
  stock "$JAVAC20" \
  'weft run, an aspect advising nothing (goal x1.3 wall)' "$W/weft run -a $W/idle.weft --advice-cp $W/nothing --Xlint ignore -- $JAVAC20" \
  'weft run, nothing-advice everywhere' "$W/weft run -a bench/testdata/suite/nothing.weft --advice-cp $W/nothing --Xlint ignore -- $JAVAC20"

# weft's own process in a warm weft run of hello world (the counting
# aspect, the JDK woven before): its user + system CPU time, as it reports
# it at exit (--ltw-report's cpuSeconds), the median of RUNS runs.
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java
RUN="$W/weft run -a examples/count/count.weft --advice-cp $W/adv --ltw-report $W/own.json -- java -Dcount.quiet -cp $W/hello Hello"
$RUN >/dev/null 2>&1
section 'hello world under weft run' stock "$HELLO" 'weft run, the counting aspect' "$RUN"
bench_mark
for _ in $(seq 1 "$RUNS"); do
  $RUN >/dev/null 2>&1
  sed -n 's/.*"cpuSeconds": \([0-9.e-]*\).*/\1/p' "$W/own.json"
done | awk '{ printf "%d\n", $1 * 1000 + 0.5 }' | sort -n >"$W/own"
OWN=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' "$W/own")
printf '%-50s %7d ms CPU (goal <= 60 ms)\n' "weft run's own process, hello world" "$OWN"
bench_record "hello world under weft run" "weft run's own process: its CPU time" "$OWN ms CPU" "" "60 ms" \
  "the median of $RUNS runs, from --ltw-report's cpuSeconds" "$RUN"
uptime
bench_end
