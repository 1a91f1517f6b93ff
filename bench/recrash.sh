#!/usr/bin/env bash
# Figures for the ReCrash recorder (examples/recrash), side by side:
#   an application workload: a driver of the 120 generated classes of the
#   javac workload (generic collections, streams, lambdas, recursion:
#   ~60,000 executions of application methods a round, ROUNDS rounds), on
#   the stock JDK, then
#   under weft recrash (application frames), weft recrash --depth 1
#   (receivers and arguments copied one level), and weft recrash
#   --jdk-frames (java.base's frames recorded too);
#   the javac workload (120 files), stock, under weft recrash (javac is JDK
#   code: no frame of it is recorded, the row is the woven java.base's
#   cost) and under weft recrash --jdk-frames --modules
#   java.base,jdk.compiler (javac's frames and java.base's).
# No run crashes: the figures are the recording's cost. Each row is the
# best of RUNS runs of the whole command (weft's own work included), after
# one run that fills the caches.
# Usage: bash bench/recrash.sh [RUNS [ROUNDS]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
ROUNDS=${2:-100}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
javac_workload "$W/src"
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
} > "$W/src/gen/Drive.java"
javac -d "$W/app" "$W"/src/gen/*.java

row() { printf '%-40s %7d  %7d   %s %s\n' "$1" "$4" "$5" "$(ratio "$2" "$4")" "$(ratio "$3" "$5")"; }
uptime
APP=(java -cp "$W/app" gen.Drive "$ROUNDS")
read -r s_w s_c < <(best "${APP[@]}")
read -r a_w a_c < <(best "$W/weft" recrash -o "$W/r1" -- "${APP[@]}")
read -r d_w d_c < <(best "$W/weft" recrash --depth 1 -o "$W/r2" -- "${APP[@]}")
read -r j_w j_c < <(best "$W/weft" recrash --jdk-frames -o "$W/r3" -- "${APP[@]}")
JAVAC=(javac -d "$W/out" "$W"/src/gen/C*.java)
read -r js_w js_c < <(best "${JAVAC[@]}")
read -r ja_w ja_c < <(best "$W/weft" recrash -o "$W/r5" -- "${JAVAC[@]}")
read -r jj_w jj_c < <(best "$W/weft" recrash --jdk-frames --modules java.base,jdk.compiler -o "$W/r4" -- "${JAVAC[@]}")
printf "%-40s wall ms   cpu ms   vs stock (wall, cpu)\n" "driver of 120 classes, $ROUNDS rounds"
printf '%-40s %7d  %7d\n' stock "$s_w" "$s_c"
row 'recrash, application frames' "$s_w" "$s_c" "$a_w" "$a_c"
row 'recrash, application frames, --depth 1' "$s_w" "$s_c" "$d_w" "$d_c"
row 'recrash --jdk-frames (java.base)' "$s_w" "$s_c" "$j_w" "$j_c"
printf '%-40s wall ms   cpu ms   vs stock (wall, cpu)\n' 'javac, 120 files'
printf '%-40s %7d  %7d\n' stock "$js_w" "$js_c"
row 'recrash, application frames (none)' "$js_w" "$js_c" "$ja_w" "$ja_c"
row 'recrash --jdk-frames (+ jdk.compiler)' "$js_w" "$js_c" "$jj_w" "$jj_c"
