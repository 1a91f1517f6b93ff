#!/usr/bin/env bash
# The figures of weaving the JDK (issue 13), side by side in one run:
#   1. weaving: all modules with the counting aspect (examples/count: before
#      advice at every method and constructor execution), and guava with
#      weft and ajc: wall time and peak RSS (/usr/bin/time -f '%e %M');
#   2. hello world start-up: stock, stock without class data sharing, the
#      woven JDK as --patch-module patches and as a runtime image (weft jdk
#      --image, with its own CDS archive);
#   3. javac on 120 files: stock, the JDK woven with the counting aspect and
#      with advice that does nothing (bench/testdata/nop.weft): the
#      difference between the last two is the advice's own work;
#   4. fib(30) (bench/testdata/Work.java, best round of 30, the thread's
#      CPU time): unwoven, with a raw unguarded static call of the counter
#      at every entry in the source, woven with the counting advice
#      (bench/testdata/work.weft);
#   5. the application's class data sharing archive: weft run on the image
#      (all modules, counting) with --app-cds=false and by default, hello
#      world from a jar and javac compiling it (java -cp JAR
#      com.sun.tools.javac.Main: jdk.compiler's classes, about 3,600
#      classes loaded).
# Each run command is timed RUNS times (after one run that fills the
# caches); the best wall and CPU (user + sys) times are kept. Ratios are
# CPU ratios where the machine is shared (less sensitive to load); javac's
# JDKs run in rounds, side by side, and their ratios are the median of the
# rounds'.
# BEFORE=path/to/weft (a weft binary, e.g. built from an older commit) adds
# the javac and fib rows for JDKs and classes woven by it, and with
# ONLY=weave its weave rows.
# ONLY=fib runs only what rows 3 and 4 need (the steady-state overhead).
# ONLY=weave runs part 1's weave rows only (weft jdk -o and weft weave
# guava, RUNS times each, alternating with BEFORE's, the least CPU shown;
# ajc once).
# Usage: bash bench/jdk.sh [RUNS]   (from the repository root; JDK 17, Go, Debian's aspectj)
set -euo pipefail
RUNS=${1:-3}
ALL=true
[ "${ONLY:-}" = fib ] && ALL=false
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
. bench/common.sh
uptime

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java bench/testdata/nop/Nop.java

# 1. Weaving.
timed() { # LABEL COMMAND...: prints the command's wall time, CPU and peak RSS
  local label=$1
  shift
  /usr/bin/time -o "$W/time" -f '%e %U %S %M' "$@" >/dev/null
  read -r e u s m <"$W/time"
  printf '%-44s %6.2f s wall, %6.2f CPU-s, %5d MB peak RSS\n' "$label" "$e" "$(echo "$u $s" | awk '{print $1+$2}')" $((m / 1024))
}
COUNT="-a examples/count/count.weft --advice-cp $W/adv"
GUAVA=/usr/share/java/guava.jar
cat >"$W/CountAll.aj" <<'AJ'
public aspect CountAll {
    before(): (execution(* *(..)) || execution(new(..))) && !within(CountAll) {
        weft.tools.count.Counter.hit(thisJoinPointStaticPart.getId());
    }
}
AJ
if [ "${ONLY:-}" = weave ]; then
  # Each weave RUNS times, this build's and BEFORE's alternating; shown:
  # the run with the least CPU of each.
  for _ in $(seq 1 "$RUNS"); do
    for b in "$W/weft" ${BEFORE:-}; do
      tag=""
      [ "$b" != "$W/weft" ] && tag=" ($(basename "$b"))"
      rm -rf "$W/o"
      timed "weft jdk, all modules$tag" "$b" jdk -q $COUNT -o "$W/o/jdk"
      timed "weft weave guava$tag" "$b" weave -q $COUNT -o "$W/o/g.jar" "$GUAVA"
    done
  done >"$W/rows"
  declare -A best cpu
  labels=()
  while IFS= read -r row; do
    label=${row:0:44}
    c=$(sed -E 's/.* ([0-9.]+) CPU-s.*/\1/' <<<"$row")
    if [ -z "${best[$label]:-}" ]; then
      labels+=("$label")
    elif awk "BEGIN { exit !($c >= ${cpu[$label]}) }"; then
      continue
    fi
    best[$label]=$row
    cpu[$label]=$c
  done <"$W/rows"
  for label in "${labels[@]}"; do echo "${best[$label]}"; done
  JAVA_OPTS=-Xmx2g timed 'ajc -inpath guava' ajc -1.8 -warn:none -inpath "$GUAVA" -cp "/usr/share/java/aspectjrt.jar:$W/adv" \
    -outjar "$W/guava-ajc.jar" "$W/CountAll.aj"
  uptime
  exit 0
fi
timed 'weft jdk, all modules' "$W/weft" jdk -q $COUNT -o "$W/jdk"
$ALL && timed 'weft jdk --image, all modules (+ jlink, CDS)' "$W/weft" jdk -q $COUNT --image "$W/img"
"$W/weft" jdk -q -a bench/testdata/nop.weft --advice-cp "$W/adv" -o "$W/jdk-nop"
if $ALL; then
  timed 'weft weave guava' "$W/weft" weave -q $COUNT -o "$W/guava-weft/g.jar" "$GUAVA"
  JAVA_OPTS=-Xmx2g timed 'ajc -inpath guava' ajc -1.8 -warn:none -inpath "$GUAVA" -cp "/usr/share/java/aspectjrt.jar:$W/adv" \
    -outjar "$W/guava-ajc.jar" "$W/CountAll.aj"
fi
if [ -n "${BEFORE:-}" ]; then
  "$BEFORE" jdk -q $COUNT -o "$W/jdk-before"
fi

# 2. Hello world.
Q=-Dcount.quiet=1
if $ALL; then
mkdir -p "$W/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$W/hello/Hello.java"
javac -d "$W/hello" "$W/hello/Hello.java"
read -r s_w s_c < <(best java -cp "$W/hello" Hello)
read -r n_w n_c < <(best java -Xshare:off -cp "$W/hello" Hello)
read -r w_w w_c < <(best java @"$W/jdk/weft.args" $Q -cp "$W/hello" Hello)
read -r i_w i_c < <(best "$W/img/bin/java" $Q -cp "$W/hello" Hello)
printf 'hello world (wall / cpu ms): stock %5d / %5d   stock without CDS %5d / %5d   woven, patches %5d / %5d   woven, image %5d / %5d   image %s wall, %s cpu\n' \
  "$s_w" "$s_c" "$n_w" "$n_c" "$w_w" "$w_c" "$i_w" "$i_c" "$(ratio "$s_w" "$i_w")" "$(ratio "$s_c" "$i_c")"
fi

# 3. javac, 120 generated classes with generics, lambdas, streams.
javac_workload "$W/src"
# The JDKs run side by side, one javac each per round (rounds): the ratios
# are the median of the rounds' (stock javac's CPU varies by a quarter from
# run to run on these machines).
ROUND_CMD="-m jdk.compiler/com.sun.tools.javac.Main -d $W/out $(echo "$W"/src/gen/*.java)"
JDKS=("" "@$W/jdk/weft.args $Q" "@$W/jdk-nop/weft.args")
[ -n "${BEFORE:-}" ] && JDKS+=("@$W/jdk-before/weft.args $Q")
mapfile -t rows < <(rounds "${JDKS[@]}")
read -r s_w s_c _ <<<"${rows[0]}"
read -r c_w c_c c_r <<<"${rows[1]}"
read -r z_w z_c z_r <<<"${rows[2]}"
printf 'javac, 120 files (best wall / cpu ms; median of %d rounds'"'"' cpu ratios): stock %6d / %6d   counting %6d / %6d (x%s cpu)   no-op advice %6d / %6d (x%s cpu)   the counting advice'"'"'s own work: %s%% of the overhead\n' \
  "$RUNS" "$s_w" "$s_c" "$c_w" "$c_c" "$c_r" "$z_w" "$z_c" "$z_r" \
  "$(echo "$c_r $z_r" | awk '{d=$1-1; printf "%d", (d > 0 ? 100*($1-$2)/d : 0)}')"
if [ -n "${BEFORE:-}" ]; then
  read -r b_w b_c b_r <<<"${rows[3]}"
  printf 'javac, 120 files, counting, JDK woven by %s: %6d / %6d (x%s cpu)\n' "$BEFORE" "$b_w" "$b_c" "$b_r"
fi

# 4. fib(30).
T=bench/testdata
javac --release 8 -g -d "$W/plain" $T/Work.java
mkdir -p "$W/rawsrc/work"
cp $T/WorkRaw.java.in "$W/rawsrc/work/Work.java"
javac --release 8 -g -cp "$W/adv" -d "$W/raw" "$W/rawsrc/work/Work.java"
"$W/weft" weave -q -a $T/work.weft --advice-cp "$W/adv" -o "$W/woven" "$W/plain"
fib() { # CLASSPATH: the best round time of fib(30) in µs, best of RUNS runs
  local b=999999999
  for _ in $(seq 1 "$RUNS"); do
    local ns
    ns=$(java $Q -cp "$1" work.Work fib 30 cpu | awk '{print int($2/1000)}')
    ((ns < b)) && b=$ns
  done
  echo "$b"
}
f_p=$(fib "$W/plain")
f_r=$(fib "$W/raw:$W/adv")
f_w=$(fib "$W/woven:$W/adv")
printf 'fib(30), best round (µs of CPU): unwoven %6d   raw static call %6d (%s)   woven, counting %6d (%s)\n' \
  "$f_p" "$f_r" "$(ratio "$f_p" "$f_r")" "$f_w" "$(ratio "$f_p" "$f_w")"
if [ -n "${BEFORE:-}" ]; then
  "$BEFORE" weave -q -a $T/work.weft --advice-cp "$W/adv" -o "$W/woven-before" "$W/plain"
  f_b=$(fib "$W/woven-before:$W/adv")
  printf 'fib(30), woven by %s: %6d (%s)\n' "$BEFORE" "$f_b" "$(ratio "$f_p" "$f_b")"
fi

# 5. The application's class data sharing archive (weft run, cmd/weft/appcds.go).
if $ALL; then
(cd "$W/hello" && jar cf "$W/hello.jar" Hello.class)
mkdir -p "$W/jout"
RUN="$W/weft run $COUNT"
HELLO="-- java $Q -cp $W/hello.jar Hello"
JAVAC1="-- java $Q -cp $W/hello.jar com.sun.tools.javac.Main -d $W/jout $W/hello/Hello.java"
$RUN $HELLO >/dev/null 2>&1 # weaves and links the image, lists the classes
$RUN $JAVAC1 >/dev/null 2>&1
read -r h0_w h0_c < <(best $RUN --app-cds=false $HELLO)
read -r h1_w h1_c < <(best $RUN $HELLO) # its first run makes the archive
read -r j0_w j0_c < <(best $RUN --app-cds=false $JAVAC1)
read -r j1_w j1_c < <(best $RUN $JAVAC1)
printf 'weft run on the image, the application'"'"'s CDS archive (wall / cpu ms): hello without %5d / %5d   with %5d / %5d (%s cpu)   javac Hello.java without %5d / %5d   with %5d / %5d (%s cpu)\n' \
  "$h0_w" "$h0_c" "$h1_w" "$h1_c" "$(ratio "$h0_c" "$h1_c")" "$j0_w" "$j0_c" "$j1_w" "$j1_c" "$(ratio "$j0_c" "$j1_c")"
fi
uptime
