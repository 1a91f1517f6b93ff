#!/usr/bin/env bash
# Figures for the ReCrash recorder (examples/recrash), side by side, each
# workload's commands run interleaved, RUNS rounds after a warm-up round
# (medians of the whole command's wall and user+sys CPU: weft's own work,
# the woven JVM's start-up and its JIT included):
#   bank: bench/testdata/recrash/Bank.java, accounts and transfers between
#     them, small getters, setters and checks (a transfer is 34 method
#     executions; 6 million transfers between 100,000 accounts by default,
#     about 200 million executions), on the stock JDK, under weft recrash
#     (application frames) and weft recrash --jdk-frames;
#   driver: a driver of the 120 generated classes of the javac workload
#     (generic collections, streams, lambdas, recursion: ~60,000
#     executions of application methods a round, ROUNDS rounds), stock,
#     weft recrash, weft recrash --depth 1 (receivers and arguments copied
#     one level) and weft recrash --jdk-frames;
#   javac: the javac workload (120 files), stock, under weft recrash (javac
#     is JDK code: no frame of it is recorded, the row is the woven
#     java.base's cost) and weft recrash --jdk-frames --modules
#     java.base,jdk.compiler (javac's frames and java.base's).
# With BASE, a git revision or a source tree, the recorder of that weft
# too, in the same rounds (its rows marked BASE): before and after, side
# by side. ROWS (environment) chooses the workloads, default "bank";
# TRANSFERS and ACCOUNTS size the bank's run. WEFT_BENCH_CACHE names a
# cache directory to keep between runs (a woven JDK takes a minute).
# No run crashes: the figures are the recording's cost. Records
# (bench/common.sh): each section's rows.
# Usage: [ROWS="bank driver javac"] bash bench/recrash.sh [RUNS [ROUNDS [BASE]]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
ROUNDS=${2:-100}
BASE=${3:-}
ROWS=${ROWS:-bank}
TRANSFERS=${TRANSFERS:-6}
ACCOUNTS=${ACCOUNTS:-100000}
has() { [[ " $ROWS " == *" $1 "* ]]; }
. bench/common.sh
bench_begin "$@"
bench_start "$BASE"

uptime
if has bank; then
  javac -d "$W/bank" bench/testdata/recrash/Bank.java
  BANK="java -cp $W/bank bank.Bank $TRANSFERS $ACCOUNTS"
  section "bank: $TRANSFERS M transfers, $ACCOUNTS accounts" \
    stock "$BANK" \
    'recrash, application frames' "$W/weft recrash -o $W/rb1 -- $BANK" \
    'recrash --jdk-frames' "$W/weft recrash --jdk-frames -o $W/rb2 -- $BANK"
fi
if has driver || has javac; then
  javac_workload "$W/src"
fi
if has driver; then
  {
    echo 'package gen;'
    echo 'public class Drive {'
    echo '    public static void main(String[] a) {'
    echo '        long sink = 0;'
    echo '        for (int r = 0; r < Integer.parseInt(a[0]); r++) {'
    for i in $(seq 1 120); do
      echo "            { C$i<Integer> c = new C$i<>(); for (int i = 0; i < 40; i++) c.add((i * 31) % 17);"
      echo "              sink += c.get().size() + c.split(x -> x > 8).get(true) + C$i.f$i(12) + c.describe().length() + c.best().get().y(); }"
    done
    echo '        }'
    echo '        System.out.println(sink);'
    echo '    }'
    echo '}'
  } >"$W/src/gen/Drive.java"
  javac -d "$W/app" "$W"/src/gen/*.java
  APP="java -cp $W/app gen.Drive $ROUNDS"
  section "driver of 120 classes, $ROUNDS rounds" \
    stock "$APP" \
    'recrash, application frames' "$W/weft recrash -o $W/r1 -- $APP" \
    'recrash, application frames, --depth 1' "$W/weft recrash --depth 1 -o $W/r2 -- $APP" \
    'recrash --jdk-frames (java.base)' "$W/weft recrash --jdk-frames -o $W/r3 -- $APP"
fi
if has javac; then
  JAVAC="javac -d $W/out $(echo "$W"/src/gen/C*.java)"
  section 'javac, 120 files' \
    stock "$JAVAC" \
    'recrash, application frames (none)' "$W/weft recrash -o $W/r5 -- $JAVAC" \
    'recrash --jdk-frames (+ jdk.compiler)' "$W/weft recrash --jdk-frames --modules java.base,jdk.compiler -o $W/r4 -- $JAVAC"
fi
uptime
bench_end
