#!/usr/bin/env bash
# The tools' cost, side by side in one run, against their goals:
#   javac compiling the 120 generated files of common.sh: stock; weft
#     profile --no-time (calls and allocations; goal x1.5 CPU, x2 wall);
#     weft profile --no-time --bytecodes (and bytecodes counted per
#     context, JP's default blocks; goal x2 CPU) and --bytecodes=precise;
#     weft profile (and wall time, sampled; goal x2.5 CPU); weft leak
#     (goal x2 CPU);
#   bench/testdata/recrash/Bank.java, accounts and transfers (about 200
#     million executions of small methods): stock; weft recrash
#     (application frames; goal x1.6 CPU); weft recrash --jdk-frames
#     (goal x3 CPU);
#   around advice (bench/around.sh: fib(30) and a loop making 1 M small
#     objects, counting and proceeding once): weft's ratio to unwoven
#     against ajc's (goal: no more than ajc's).
# Each section's commands run interleaved, RUNS rounds after two warm-up
# rounds (common.sh's section: medians of the whole command's wall and
# user+sys CPU, weft's own process and the woven JVM's start and JIT
# included): a tool's first run weaves its JDK and lists the classes its
# program loads, the second makes the program's class data sharing
# archive from the list (cmd/weft/appcds.go), later ones map it. With BASE, a git revision or a source tree, the same
# commands with that weft in the same rounds (rows marked BASE), and
# around.sh's BASE row: the previous build's figures in the same run.
# Records (bench/common.sh): each section's rows; around.sh writes its own.
# WEFT_BENCH_CACHE names a cache directory kept between runs (each tool's
# woven JDK takes a minute or two to make, per weft binary; a BASE given
# as a source tree builds the same binary from one run to the next).
# Usage: [WEFT_BENCH_CACHE=DIR] bash bench/tools.sh [RUNS [BASE]]   (from the repository root; JDK 17, Go and ajc on PATH)
set -euo pipefail
RUNS=${1:-3}
BASE=${2:-}
. bench/common.sh
bench_begin "$@"
WARMUP=${WARMUP:-2}
bench_start "$BASE"
javac_workload "$W/src"
javac -d "$W/bank" bench/testdata/recrash/Bank.java
JAVAC="javac -d $W/out $(echo "$W"/src/gen/*.java)"
BANK="java -cp $W/bank bank.Bank 6 100000"

uptime
[ -n "$BASE" ] && echo "BASE: the weft of $BASE"
section 'javac, 120 files' \
  stock "$JAVAC" \
  'profile --no-time (goal x1.5 cpu, x2 wall)' "$W/weft profile --no-time --top 0 -o $W/p1 -- $JAVAC" \
  'profile --no-time --bytecodes (goal x2 cpu)' "$W/weft profile --no-time --bytecodes --top 0 -o $W/p3 -- $JAVAC" \
  'profile --no-time --bytecodes=precise' "$W/weft profile --no-time --bytecodes=precise --top 0 -o $W/p4 -- $JAVAC" \
  'profile, time (goal x2.5 cpu)' "$W/weft profile --top 0 -o $W/p2 -- $JAVAC" \
  'leak (goal x2 cpu)' "$W/weft leak -o $W/l1 -- $JAVAC"
section 'bank: 6 M transfers, 100,000 accounts' \
  stock "$BANK" \
  'recrash (goal x1.6 cpu)' "$W/weft recrash -o $W/r1 -- $BANK" \
  'recrash --jdk-frames (goal x3 cpu)' "$W/weft recrash --jdk-frames -o $W/r2 -- $BANK"
uptime
echo 'around advice (goal: weft around no more than ajc around, both loops):'
bash bench/around.sh "$RUNS" 30 ${BASE:+"$BASE"}
bench_end
