#!/usr/bin/env bash
# The figures of weaving the JDK (issues 13 and 26), side by side in one
# run, for JDK 17 and JDK 25 (JDK25=HOME, default Temurin's; JDK25=none:
# JDK 17 alone), each row with both:
#   1. weaving: all modules with the counting aspect (examples/count: before
#      advice at every method and constructor execution), and guava with
#      weft and ajc: wall time and peak RSS (/usr/bin/time -f '%e %M');
#   2. hello world start-up: stock, stock with the program initializing
#      the counting advice's class (the baseline of the woven runs, whose
#      advice initializes it), stock without class data sharing, the woven
#      JDK as --patch-module patches and as a runtime image (weft jdk
#      --image, with its own CDS archive);
#   3. javac on 120 files: stock, the JDK woven with the counting aspect and
#      with advice that does nothing (bench/testdata/nop.weft): the
#      difference between the last two is the advice's own work;
#   4. fib(30) (bench/testdata/Work.java, best round of 30, the thread's
#      CPU time): unwoven, with a raw unguarded static call of the counter
#      at every entry in the source, woven with the counting advice
#      (bench/testdata/work.weft);
#   5. weft run on the image (all modules, counting) and the application's
#      class data sharing archive: with --app-cds=false and by default,
#      hello world from a jar and javac compiling it (java -cp JAR
#      com.sun.tools.javac.Main: jdk.compiler's classes, about 3,600
#      classes loaded).
# The weaves run once. The start-up rows (2, 5) run their commands, both
# JDKs', interleaved: one run of each a round, RUNS rounds after a warm-up
# round (bench/common.sh's medians), each figure the median of its runs.
# Ratios are CPU ratios where the machine is shared (less sensitive to
# load); javac's JDKs run in rounds, side by side, and their ratios are the
# median of the rounds'. fib runs RUNS JVMs a configuration, interleaved,
# each printing its best round: the median of those.
# BEFORE=path/to/weft (a weft binary, e.g. built from an older commit) adds
# the javac and fib rows for JDKs and classes woven by it, and with
# ONLY=weave its weave rows.
# ONLY=fib runs only what rows 3 and 4 need (the steady-state overhead).
# ONLY=weave runs part 1's weave rows only (weft jdk -o and weft weave
# guava, RUNS times each, alternating with BEFORE's, the least CPU shown;
# ajc once).
# Records (bench/common.sh): every figure printed, a JDK each.
# Usage: bash bench/jdk.sh [RUNS]   (from the repository root; JDK 17, Go, Debian's aspectj, JDK 25)
set -euo pipefail
RUNS=${1:-3}
ALL=true
[ "${ONLY:-}" = fib ] && ALL=false
J17=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
J25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
VS=(17)
[ "$J25" != none ] && VS+=(25)
home() { if [ "$1" = 17 ]; then echo "$J17"; else echo "$J25"; fi; }
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache
. bench/common.sh
bench_begin "$@"
uptime
rec() { # JDK SECTION WHAT FIGURE REFERENCE GOAL HOW COMMAND: a record of a figure on JDK 17 or 25
  local v=$1
  shift
  BENCH_JAVA=$(home "$v")/bin/java bench_record "$@"
}

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java bench/testdata/nop/Nop.java

# 1. Weaving.
measure() { # COMMAND...: prints the command's wall time, CPU and peak RSS
  /usr/bin/time -o "$W/time" -f '%e %U %S %M' "$@" >/dev/null
  read -r e u s m <"$W/time"
  printf '%6.2f s wall, %6.2f CPU-s, %5d MB peak RSS' "$e" "$(echo "$u $s" | awk '{print $1+$2}')" $((m / 1024))
}
declare -A CMDOF
timed() { # LABEL COMMAND...: prints the label and measure's figures; notes the command in CMDOF
  local label=$1
  shift
  CMDOF[$label]="${JAVA_OPTS:+JAVA_OPTS=$JAVA_OPTS }$*"
  printf '%-44s %s\n' "$label" "$(measure "$@")"
}
WEAVING='weaving with the counting aspect'
recorded() { # LABEL HOW COMMAND...: timed, and its record
  local label=$1 how=$2 line
  shift 2
  line=$(timed "$label" "$@")
  echo "$line"
  rec 17 "$WEAVING" "$label" "${line:45}" "" "" "$how" "${JAVA_OPTS:+JAVA_OPTS=$JAVA_OPTS }$*"
}
bothjdks() { # LABEL FLAG DIR COMMAND...: COMMAND --java-home HOME FLAG DIR17 (and DIR25) for each
  # JDK: one line, JDK 17's figures then JDK 25's
  local label=$1 flag=$2 dir=$3 line v fig
  shift 3
  line=$(printf '%-44s' "$label")
  for v in "${VS[@]}"; do
    fig=$(measure "$@" --java-home "$(home "$v")" "$flag" "$dir$v")
    line="$line   JDK $v: $fig"
    rec "$v" "$WEAVING" "$label" "$fig" "" "" "one run" "$* --java-home $(home "$v") $flag $dir$v"
  done
  echo "$line"
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
  how="the least CPU of $RUNS runs"
  [ -n "${BEFORE:-}" ] && how="$how, alternating with those of $BEFORE"
  for label in "${labels[@]}"; do
    echo "${best[$label]}"
    l=${label%"${label##*[! ]}"}
    rec 17 "$WEAVING" "$l" "${best[$label]:45}" "" "" "$how" "${CMDOF[$l]}"
  done
  JAVA_OPTS=-Xmx2g recorded 'ajc -inpath guava' 'one run' ajc -1.8 -warn:none -inpath "$GUAVA" -cp "/usr/share/java/aspectjrt.jar:$W/adv" \
    -outjar "$W/guava-ajc.jar" "$W/CountAll.aj"
  uptime
  bench_end
  exit 0
fi
bothjdks 'weft jdk, all modules' -o "$W/jdk" "$W/weft" jdk -q $COUNT
$ALL && bothjdks 'weft jdk --image, all modules (+ jlink, CDS)' --image "$W/img" "$W/weft" jdk -q $COUNT
for v in "${VS[@]}"; do
  "$W/weft" jdk -q -a bench/testdata/nop.weft --advice-cp "$W/adv" --java-home "$(home "$v")" -o "$W/jdk-nop$v"
done
if $ALL; then
  recorded 'weft weave guava' 'one run' "$W/weft" weave -q $COUNT -o "$W/guava-weft/g.jar" "$GUAVA"
  JAVA_OPTS=-Xmx2g recorded 'ajc -inpath guava' 'one run' ajc -1.8 -warn:none -inpath "$GUAVA" -cp "/usr/share/java/aspectjrt.jar:$W/adv" \
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
printf 'public class HelloCount { public static void main(String[] a) { weft.tools.count.Counter.hit(0); System.out.println("hello"); } }\n' >"$W/hello/HelloCount.java"
javac --release 17 -cp "$W/adv" -d "$W/hello" "$W/hello/Hello.java" "$W/hello/HelloCount.java"
cmds=()
for v in "${VS[@]}"; do
  java=$(home "$v")/bin/java
  cmds+=("$java -cp $W/hello Hello" "$java $Q -cp $W/hello:$W/adv HelloCount" "$java -Xshare:off -cp $W/hello Hello"
    "$java @$W/jdk$v/weft.args $Q -cp $W/hello Hello" "$W/img$v/bin/java $Q -cp $W/hello Hello")
done
bench_mark
mapfile -t rows < <(medians "${cmds[@]}")
HOW="medians of $RUNS interleaved runs of every command, both JDKs', after a warm-up"
HELLO=(stock 'stock initializing the advice class' 'stock without CDS' 'woven, patches' 'woven, runtime image')
for i in "${!VS[@]}"; do
  for k in 0 1 2 3 4; do
    read -r w c <<<"${rows[5 * i + k]}"
    fig="$w ms wall, $c ms CPU" ref=""
    if ((k == 4)); then
      read -r a_w a_c <<<"${rows[5 * i + 1]}"
      fig="$fig: $(ratio "$a_w" "$w") wall, $(ratio "$a_c" "$c") CPU" ref="${HELLO[1]}: $a_w ms wall, $a_c ms CPU"
    fi
    rec "${VS[i]}" "hello world start-up, JDK ${VS[i]}" "${HELLO[k]}" "$fig" "$ref" "" "$HOW" "${cmds[5 * i + k]}"
  done
  read -r s_w s_c <<<"${rows[5 * i]}"
  read -r a_w a_c <<<"${rows[5 * i + 1]}"
  read -r n_w n_c <<<"${rows[5 * i + 2]}"
  read -r w_w w_c <<<"${rows[5 * i + 3]}"
  read -r i_w i_c <<<"${rows[5 * i + 4]}"
  printf 'hello world, JDK %s (median wall / cpu ms): stock %4d / %4d   stock initializing the advice class %4d / %4d   stock without CDS %4d / %4d   woven, patches %5d / %5d   woven, image %4d / %4d   image %s wall, %s cpu of stock with the advice class (%s, %s of stock)\n' \
    "${VS[i]}" "$s_w" "$s_c" "$a_w" "$a_c" "$n_w" "$n_c" "$w_w" "$w_c" "$i_w" "$i_c" \
    "$(ratio "$a_w" "$i_w")" "$(ratio "$a_c" "$i_c")" "$(ratio "$s_w" "$i_w")" "$(ratio "$s_c" "$i_c")"
done
fi

# 3. javac, 120 generated classes with generics, lambdas, streams.
javac_workload "$W/src"
# The JDKs run side by side, one javac each per round (rounds): the ratios
# are the median of the rounds' (stock javac's CPU varies by a quarter from
# run to run on these machines).
ROUND_CMD="-m jdk.compiler/com.sun.tools.javac.Main -d $W/out $(echo "$W"/src/gen/*.java)"
for v in "${VS[@]}"; do
  java=$(home "$v")/bin/java
  JDKS=("$java" "$java @$W/jdk$v/weft.args $Q" "$java @$W/jdk-nop$v/weft.args")
  [ -n "${BEFORE:-}" ] && [ "$v" = 17 ] && JDKS+=("$java @$W/jdk-before/weft.args $Q")
  bench_mark
  mapfile -t rows < <(rounds "${JDKS[@]}")
  read -r s_w s_c _ <<<"${rows[0]}"
  read -r c_w c_c c_r <<<"${rows[1]}"
  read -r z_w z_c z_r <<<"${rows[2]}"
  HOW="best wall and CPU of $RUNS rounds after a warm-up, one run of each JDK a round; CPU ratio the median of the rounds'"
  JAVAC_ROWS=(stock 'woven, counting' 'woven, advice that does nothing' "woven by ${BEFORE:-}, counting")
  for k in "${!JDKS[@]}"; do
    read -r w c r <<<"${rows[k]}"
    fig="$w ms wall, $c ms CPU" ref="" goal=""
    ((k > 0)) && fig="$fig: x$r CPU" ref="stock: $s_w ms wall, $s_c ms CPU"
    ((k == 1)) && goal='x1.3 CPU'
    rec "$v" "javac, 120 files, JDK $v" "${JAVAC_ROWS[k]}" "$fig" "$ref" "$goal" "$HOW" "${JDKS[k]} $ROUND_CMD"
  done
  printf 'javac, 120 files, JDK %s (best wall / cpu ms; median of %d rounds'"'"' cpu ratios): stock %6d / %6d   counting %6d / %6d (x%s cpu)   no-op advice %6d / %6d (x%s cpu)   the counting advice'"'"'s own work: %s%% of the overhead\n' \
    "$v" "$RUNS" "$s_w" "$s_c" "$c_w" "$c_c" "$c_r" "$z_w" "$z_c" "$z_r" \
    "$(echo "$c_r $z_r" | awk '{d=$1-1; printf "%d", (d > 0 ? 100*($1-$2)/d : 0)}')"
  if [ -n "${BEFORE:-}" ] && [ "$v" = 17 ]; then
    read -r b_w b_c b_r <<<"${rows[3]}"
    printf 'javac, 120 files, counting, JDK woven by %s: %6d / %6d (x%s cpu)\n' "$BEFORE" "$b_w" "$b_c" "$b_r"
  fi
done

# 4. fib(30): the same classes (woven for a stock JDK) on each JDK.
T=bench/testdata
javac --release 8 -g -d "$W/plain" $T/Work.java
mkdir -p "$W/rawsrc/work"
cp $T/WorkRaw.java.in "$W/rawsrc/work/Work.java"
javac --release 8 -g -cp "$W/adv" -d "$W/raw" "$W/rawsrc/work/Work.java"
"$W/weft" weave -q -a $T/work.weft --advice-cp "$W/adv" -o "$W/woven" "$W/plain"
CPS=("$W/plain" "$W/raw:$W/adv" "$W/woven:$W/adv")
if [ -n "${BEFORE:-}" ]; then
  "$BEFORE" weave -q -a $T/work.weft --advice-cp "$W/adv" -o "$W/woven-before" "$W/plain"
  CPS+=("$W/woven-before:$W/adv")
fi
rm -f "$W/fib"
bench_mark
for _ in $(seq 1 "$RUNS"); do # RUNS JVMs a configuration, interleaved
  for v in "${VS[@]}"; do
    for k in "${!CPS[@]}"; do
      "$(home "$v")/bin/java" $Q -cp "${CPS[k]}" work.Work fib 30 cpu | awk -v v="$v" -v k="$k" '{print v, k, int($2/1000)}' >>"$W/fib"
    done
  done
done
fib() { # JDK CONFIG: the median of the JVMs' best rounds of fib(30), µs
  awk -v v="$1" -v k="$2" '$1 == v && $2 == k { print $3 }' "$W/fib" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
FIB_ROWS=(unwoven 'raw unguarded static call in the source' 'woven, counting advice' "woven by ${BEFORE:-}")
for v in "${VS[@]}"; do
  f_p=$(fib "$v" 0) f_r=$(fib "$v" 1) f_w=$(fib "$v" 2)
  for k in "${!CPS[@]}"; do
    f=$(fib "$v" "$k") ref="" fig=""
    ((k > 0)) && fig=": $(ratio "$f_p" "$f")" ref="unwoven: $f_p µs"
    ((k == 2)) && fig="$fig ($(ratio "$f_r" "$f") of the raw call)" ref="$ref; raw call: $f_r µs"
    rec "$v" "fib(30), JDK $v" "${FIB_ROWS[k]}" "$f µs$fig" "$ref" "" \
      "best round of the thread's CPU in each JVM, the median of $RUNS JVMs, the configurations interleaved" \
      "$(home "$v")/bin/java $Q -cp ${CPS[k]} work.Work fib 30 cpu"
  done
  printf 'fib(30), JDK %s, best round (µs of CPU, median of %d JVMs): unwoven %6d   raw static call %6d (%s)   woven, counting %6d (%s, %s of the raw call)\n' \
    "$v" "$RUNS" "$f_p" "$f_r" "$(ratio "$f_p" "$f_r")" "$f_w" "$(ratio "$f_p" "$f_w")" "$(ratio "$f_r" "$f_w")"
  if [ -n "${BEFORE:-}" ]; then
    f_b=$(fib "$v" 3)
    printf 'fib(30), JDK %s, woven by %s: %6d (%s)\n' "$v" "$BEFORE" "$f_b" "$(ratio "$f_p" "$f_b")"
  fi
done

# 5. weft run on the image, and the application's class data sharing
# archive (cmd/weft/appcds.go).
if $ALL; then
(cd "$W/hello" && jar cf "$W/hello.jar" Hello.class)
mkdir -p "$W/jout"
RUN="$W/weft run $COUNT"
cmds=()
for v in "${VS[@]}"; do
  java=$(home "$v")/bin/java
  HELLO="-- $java $Q -cp $W/hello.jar Hello"
  JAVAC1="-- $java $Q -cp $W/hello.jar com.sun.tools.javac.Main -d $W/jout$v $W/hello/Hello.java"
  mkdir -p "$W/jout$v"
  $RUN $HELLO >/dev/null 2>&1 # weaves and links the image, lists the classes
  $RUN $JAVAC1 >/dev/null 2>&1
  # medians' warm-up round makes the archives (a program's second run).
  cmds+=("$RUN --app-cds=false $HELLO" "$RUN $HELLO" "$RUN --app-cds=false $JAVAC1" "$RUN $JAVAC1")
done
bench_mark
mapfile -t rows < <(medians "${cmds[@]}")
HOW="medians of $RUNS interleaved runs of every command, both JDKs', after a warm-up that makes the archives"
RUN_ROWS=('hello world, --app-cds=false' 'hello world, with the archive' 'javac Hello.java, --app-cds=false' 'javac Hello.java, with the archive')
for i in "${!VS[@]}"; do
  for k in 0 1 2 3; do
    read -r w c <<<"${rows[4 * i + k]}"
    fig="$w ms wall, $c ms CPU" ref=""
    if ((k % 2)); then
      read -r n_w n_c <<<"${rows[4 * i + k - 1]}"
      fig="$fig: $(ratio "$n_c" "$c") CPU" ref="${RUN_ROWS[k - 1]}: $n_w ms wall, $n_c ms CPU"
    fi
    rec "${VS[i]}" "weft run on the image, the application's CDS archive, JDK ${VS[i]} (weft's own time included)" \
      "${RUN_ROWS[k]}" "$fig" "$ref" "" "$HOW" "${cmds[4 * i + k]}"
  done
  read -r h0_w h0_c <<<"${rows[4 * i]}"
  read -r h1_w h1_c <<<"${rows[4 * i + 1]}"
  read -r j0_w j0_c <<<"${rows[4 * i + 2]}"
  read -r j1_w j1_c <<<"${rows[4 * i + 3]}"
  printf 'weft run on the image, JDK %s, the application'"'"'s CDS archive (median wall / cpu ms, weft'"'"'s own included): hello without %5d / %5d   with %5d / %5d (%s cpu)   javac Hello.java without %5d / %5d   with %5d / %5d (%s cpu)\n' \
    "${VS[i]}" "$h0_w" "$h0_c" "$h1_w" "$h1_c" "$(ratio "$h0_c" "$h1_c")" "$j0_w" "$j0_c" "$j1_w" "$j1_c" "$(ratio "$j0_c" "$j1_c")"
done
fi
uptime
bench_end
