#!/usr/bin/env bash
# Figures for the calling-context profiler (examples/profile), side by side
# on one javac workload (120 generated classes, as bench/jdk.sh):
#   stock JDK;
#   the counting aspect (examples/count) woven everywhere;
#   weft profile --no-time (calls and allocations per calling context);
#   weft profile (and wall time, calibrated and compensated);
#   the profiler's aspect woven the same way with advice that does nothing
#   (enter, exit, object and array empty, not inlined as weft profile
#   has them): the floor the woven shape alone costs.
# With BASE, a git revision or a source tree, the profiler of that weft
# too, in the same run (its rows marked BASE): before and after, side by
# side. (A source tree, built where it is, gives the same weft binary from
# one run to the next, so WEFT_BENCH_CACHE keeps its woven JDKs.)
# Each row is the best of RUNS runs of the whole command (weft's own work
# included: serving load-time weaving, writing the profile and its flame
# graph), after one run that fills the caches. WEFT_BENCH_CACHE names a
# cache directory to keep between runs (the woven JDKs take minutes each).
# Usage: bash bench/profile.sh [RUNS [BASE]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
BASE=${2:-}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=${WEFT_BENCH_CACHE:-$W/cache}

go build -o "$W/weft" ./cmd/weft
if [ -n "$BASE" ]; then
  src=$BASE
  if [ ! -d "$BASE" ]; then
    src=$W/base
    mkdir "$src"
    git archive "$BASE" | tar -x -C "$src"
  fi
  (cd "$src" && go build -o "$W/weft-base" ./cmd/weft)
fi
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java
mkdir -p "$W/empty/profile"
cat > "$W/empty/profile/Profiler.java" <<'JAVA'
package profile;
import weft.rt.JoinPointStaticPart;
public final class Profiler {
    public static void enter(int id, JoinPointStaticPart jp) {}
    public static void exit() {}
    public static void object(int id, JoinPointStaticPart jp) {}
    public static void array(int id, JoinPointStaticPart jp, int[] dims) {}
}
JAVA
javac -cp "$W/weft-rt.jar" -d "$W/empty-adv" "$W/empty/profile/Profiler.java"
# As weft profile runs the JVM (cmd/weft/profile.go: profilerJVMOptions).
NOINLINE=(-J-XX:CompileCommand=quiet -J-XX:CompileCommand=dontinline,profile.Profiler::*)

# A javac workload: 120 generated classes with generics, lambdas, streams.
. bench/common.sh
javac_workload "$W/src"
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
EMPTY=(run -a examples/profile/profile.weft --advice-cp "$W/empty-adv" -- javac "${NOINLINE[@]}" -d "$W/out" "$W"/src/gen/*.java)
read -r s_w s_c < <(best "${JAVAC[@]}")
read -r c_w c_c < <(best "$W/weft" run -a examples/count/count.weft --advice-cp "$W/adv" -- "${JAVAC[@]}")
if [ -n "$BASE" ]; then
  read -r be_w be_c < <(best "$W/weft-base" "${EMPTY[@]}")
  read -r bn_w bn_c < <(best "$W/weft-base" profile --no-time --top 0 -o "$W/b1" -- "${JAVAC[@]}")
  read -r bt_w bt_c < <(best "$W/weft-base" profile --top 0 -o "$W/b2" -- "${JAVAC[@]}")
fi
read -r e_w e_c < <(best "$W/weft" "${EMPTY[@]}")
read -r n_w n_c < <(best "$W/weft" profile --no-time --top 0 -o "$W/p1" -- "${JAVAC[@]}")
read -r t_w t_c < <(best "$W/weft" profile --top 0 -o "$W/p2" -- "${JAVAC[@]}")
row() { printf '%-32s %7d  %7d   %s %s\n' "$1" "$2" "$3" "$(ratio "$s_w" "$2")" "$(ratio "$s_c" "$3")"; }
printf 'javac, 120 files                 wall ms   cpu ms   vs stock (wall, cpu)\n'
printf '%-32s %7d  %7d\n' stock "$s_w" "$s_c"
row 'counting aspect everywhere' "$c_w" "$c_c"
if [ -n "$BASE" ]; then
  row "BASE $BASE: empty advice" "$be_w" "$be_c"
  row "BASE $BASE: calls + allocs" "$bn_w" "$bn_c"
  row "BASE $BASE: + wall time" "$bt_w" "$bt_c"
fi
row 'profile aspect, empty advice' "$e_w" "$e_c"
row 'profile: calls + allocs' "$n_w" "$n_c"
row 'profile: + wall time' "$t_w" "$t_c"
uptime
cat "$W/p2/summary.txt"
