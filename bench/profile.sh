#!/usr/bin/env bash
# Figures for the calling-context profiler (examples/profile), side by side
# on one javac workload (120 generated classes, as bench/jdk.sh):
#   stock JDK;
#   the counting aspect (examples/count) woven everywhere;
#   weft profile --no-time (calls and allocations per calling context);
#   weft profile (and wall time, calibrated and compensated);
#   the profiler's aspect woven the same way with advice that does nothing
#   (enter, exit, object, array, waitStart and waitEnd empty, not inlined as weft profile
#   has them): the floor the woven shape alone costs.
# With BASE, a git revision or a source tree, the profiler of that weft
# too, in the same run (its rows marked BASE): before and after, side by
# side. (A source tree, built where it is, gives the same weft binary from
# one run to the next, so WEFT_BENCH_CACHE keeps its woven JDKs.)
# ROWS (environment) chooses the rows after stock, by name, default
# "count empty calls time"; "jit" adds calls + allocations under each
# other policy of weft profile --jit (stock, delayed; the default is
# c1), and
# "long" a longer workload, javac compiling the 120 files LONG times
# (default 8) in one JVM, stock and with weft profile --no-time under
# each --jit policy: a short run's win must not be a long run's loss.
# Each row is the best of RUNS runs of the whole command (weft's own work
# included: serving load-time weaving, writing the profile and its flame
# graph), after one run that fills the caches; records (bench/common.sh):
# a row each. WEFT_BENCH_CACHE names a
# cache directory to keep between runs (the woven JDKs take minutes each).
# Usage: [ROWS="calls jit long"] [LONG=N] bash bench/profile.sh [RUNS [BASE]]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-3}
BASE=${2:-}
ROWS=${ROWS:-count empty calls time}
LONG=${LONG:-8}
has() { [[ " $ROWS " == *" $1 "* ]]; }
. bench/common.sh
bench_begin "$@"
bench_start "$BASE"
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java
mkdir -p "$W/empty/weft/tools/profile"
cat > "$W/empty/weft/tools/profile/Profiler.java" <<'JAVA'
package weft.tools.profile;
public final class Profiler {
    public static void enter(int id) {}
    public static void leaf(int id) {}
    public static void exit() {}
    public static void object(int id) {}
    public static void array(int id, int[] dims) {}
    public static void waitStart() {}
    public static void waitEnd() {}
}
JAVA
javac -cp "$W/weft-rt.jar" -d "$W/empty-adv" "$W/empty/weft/tools/profile/Profiler.java"
# As weft profile runs the JVM (cmd/weft/profile.go: profilerJVMOptions and
# profilerCollector; cmd/weft/jit.go: jitOptions, the default policy c1 and
# its C1 threads, those the JVM's tiered policy gives C1 on nproc processors).
c1_threads() {
  local n log=0 loglog=0 c
  n=$(nproc)
  while (((1 << (log + 1)) <= n)); do log=$((log + 1)); done
  while (((1 << (loglog + 1)) <= (log > 1 ? log : 1))); do loglog=$((loglog + 1)); done
  c=$((log * loglog * 3 / 2))
  ((c < 2)) && c=2
  c=$((c / 3))
  echo $((c < 1 ? 1 : c))
}
NOINLINE=(-J-XX:CompileCommand=quiet -J-XX:CompileCommand=dontinline,weft.tools.profile.Profiler::* -J-XX:TieredStopAtLevel=1 "-J-XX:CICompilerCount=$(c1_threads)" -J-XX:+UseParallelGC)

# A javac workload: 120 generated classes with generics, lambdas, streams.
javac_workload "$W/src"
uptime
JAVAC=(javac -d "$W/out" "$W"/src/gen/*.java)
EMPTY=(run -a examples/profile/profile.weft --advice-cp "$W/empty-adv" -- javac "${NOINLINE[@]}" -d "$W/out" "$W"/src/gen/*.java)
# The long workload: javac's API called LONG times in one JVM.
mkdir -p "$W/long"
cat > "$W/long/Rounds.java" <<'JAVA'
public class Rounds {
    public static void main(String[] a) {
        String[] args = java.util.Arrays.copyOfRange(a, 1, a.length);
        for (int i = Integer.parseInt(a[0]); i > 0; i--)
            if (javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, args) != 0) System.exit(1);
    }
}
JAVA
javac -d "$W/long" "$W/long/Rounds.java"
LONGJAVA=(-cp "$W/long" Rounds "$LONG" -d "$W/out" "$W"/src/gen/*.java)
HOW="best of $RUNS runs after one that fills the caches, the rows one after another"
TITLE='javac, 120 files'
stock() { # COMMAND...: times the stock run the rows are compared with
  bench_mark
  read -r s_w s_c < <(best "$@")
  printf '%-32s %7d  %7d\n' "$s_name" "$s_w" "$s_c"
  bench_record "$TITLE" "$s_name" "$s_w ms wall, $s_c ms CPU" "" "" "$HOW" "$(bench_cmd "$@")"
}
row() { # NAME COMMAND...: times COMMAND, a row against the stock run
  local name=$1 w c
  shift
  bench_mark
  read -r w c < <(best "$@")
  printf '%-32s %7d  %7d   %s %s\n' "$name" "$w" "$c" "$(ratio "$s_w" "$w")" "$(ratio "$s_c" "$c")"
  bench_record "$TITLE" "${name#  }" "$w ms wall, $c ms CPU: $(ratio "$s_w" "$w") wall, $(ratio "$s_c" "$c") CPU" \
    "$s_name: $s_w ms wall, $s_c ms CPU" "" "$HOW" "$(bench_cmd "$@")"
}
printf 'javac, 120 files                 wall ms   cpu ms   vs stock (wall, cpu)\n'
s_name=stock
stock "${JAVAC[@]}"
has count && row 'counting aspect everywhere' "$W/weft" run -a examples/count/count.weft --advice-cp "$W/adv" -- "${JAVAC[@]}"
if [ -n "$BASE" ]; then
  has empty && row "BASE $BASE: empty advice" "$W/weft-base" "${EMPTY[@]}"
  has calls && row "BASE $BASE: calls + allocs" "$W/weft-base" profile --no-time --top 0 -o "$W/b1" -- "${JAVAC[@]}"
  has time && row "BASE $BASE: + wall time" "$W/weft-base" profile --top 0 -o "$W/b2" -- "${JAVAC[@]}"
fi
has empty && row 'profile aspect, empty advice' "$W/weft" "${EMPTY[@]}"
has calls && row 'profile: calls + allocs' "$W/weft" profile --no-time --top 0 -o "$W/p1" -- "${JAVAC[@]}"
if has jit; then
  for j in stock delayed; do
    row "  the same, --jit $j" "$W/weft" profile --jit $j --no-time --top 0 -o "$W/p1" -- "${JAVAC[@]}"
  done
fi
has time && row 'profile: + wall time' "$W/weft" profile --top 0 -o "$W/p2" -- "${JAVAC[@]}"
if has long; then
  TITLE="javac, 120 files, $LONG times in one JVM"
  s_name="long: stock, $LONG rounds"
  stock java "${LONGJAVA[@]}"
  for j in c1 delayed stock; do
    row "long: calls + allocs, --jit $j" "$W/weft" profile --jit $j --no-time --top 0 -o "$W/p3" -- java "${LONGJAVA[@]}"
  done
fi
uptime
bench_end
cat "$W"/p[12]/summary.txt 2>/dev/null || true
