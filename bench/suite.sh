#!/usr/bin/env bash
# The benchmark suite: real programs from Debian's packages, each a fixed,
# deterministic workload, run stock and under every mode below, side by
# side, on JDK 17 and JDK 25:
#   javac     compiling the 120 generated classes of common.sh (java -m
#             jdk.compiler/com.sun.tools.javac.Main);
#   ecj       Eclipse's compiler on the same 120 files;
#   kotlinc   Kotlin's compiler on generated Kotlin files (its launcher's
#             preloader, heap bound included; JDK 17 only, UNRUNNABLE);
#   groovy    a script of closures, collections and strings (testdata/suite/work.groovy);
#   jython    the same kind of script in Python (work.py);
#   h2, derby a JDBC workload, embedded, in memory (Sql.java): batched
#             inserts, joins, groupings, an update and a delete;
#   saxon     an XSLT 3 report, grouping and sorting generated sales (report.xsl);
#   fop       an XSL-FO document of generated tables rendered to text;
#   lucene    indexing generated documents in memory and querying them (Search.java).
# Modes (MODES, default all): stock; nothing (advice that does nothing at
# every execution and allocation, testdata/suite/nothing.weft: weaving's
# own cost); profile-notime (weft profile --no-time); profile (weft
# profile); leak (weft leak); recrash (weft recrash); jfr (the JDK's Flight
# Recorder, settings=profile); ap-cpu and ap-alloc (async-profiler's cpu
# and alloc modes, its jar from Maven Central).
# PARTS=split measures where the cost of the woven JDK goes, per program:
# its modes are stock; empty (weft run
# with advice at no join point, testdata/suite/empty.weft: the fixed cost
# of the woven runtime image, the application's archive and load-time
# weaving, no code woven); nothing; and stock-jit and nothing-jit, the same
# runs with the JIT compilers' threads kept and measured (the agent
# testdata/suite/CompilerCPU.java reads their CPU time from /proc at exit)
# and -XX:+CITime for the bytecode they compiled; their output is not
# checked. Per program it records the split of nothing's extra CPU: fixed
# (empty less stock), compiling (nothing-jit's compiler threads' CPU less
# stock-jit's) and running the woven code (the rest).
# Each program's modes run interleaved, RUNS rounds after WARMUP warm-up
# rounds (1 unless set) whose output is checked: every mode's standard
# output and files written are the stock run's (async-profiler's own lines
# left out). A run that fails is reported and its program's rows left
# out; output that differs is reported; either way the script exits 1
# once the rest is measured. A row is the medians of the rounds' wall and
# user+sys CPU times (the whole command: weft's process, weaving from a warm
# cache, writing the tool's files); then, per mode, the geometric mean of
# its ratios to stock over the programs, as DaCapo reports do, against the
# goals of the issue it measures: nothing x1.15 CPU, profile --no-time x1.3
# CPU and x1.6 wall, profile x1.5, leak x1.3, recrash x1.3, and each weft
# mode's against JFR's. Records (bench/common.sh): a row each, the geometric
# means too.
# PROGRAMS and JDKS (default "17 25") choose the programs and JDKs;
# WEFT_BENCH_CACHE keeps weft's cache between runs (each tool's woven JDK,
# per JDK, takes a minute or two to make).
# Usage: [PROGRAMS="javac h2"] [MODES="stock nothing jfr"] [JDKS=17] [WARMUP=N] bash bench/suite.sh [RUNS]
#   (from the repository root; Go, JDK 17, JDK 25 for JDKS=25, Debian's packages of the programs, mvn)
set -euo pipefail
RUNS=${1:-3}
. bench/common.sh
bench_begin "$@"
bench_start ""
ALL_PROGRAMS="javac ecj kotlinc groovy jython h2 derby saxon fop lucene"
ALL_MODES="stock nothing profile-notime profile leak recrash jfr ap-cpu ap-alloc"
SPLIT_MODES="stock empty nothing stock-jit nothing-jit"
PROGRAMS=${PROGRAMS:-$ALL_PROGRAMS}
if [ "${PARTS:-}" = split ]; then
  MODES=${MODES:-$SPLIT_MODES}
fi
MODES=${MODES:-$ALL_MODES}
JDKS=${JDKS:-17 25}
WARMUP=${WARMUP:-1}
D=/usr/share/java
T=bench/testdata/suite
declare -A JAVA_OF=([17]=/usr/lib/jvm/java-17-openjdk-amd64/bin/java [25]=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java)

# --- what every run shares ---------------------------------------------------

# async-profiler, from Maven Central (its jar holds the native library).
AP_VERSION=4.2
ap_lib() {
  local m2=${WEFT_TEST_M2:-${XDG_CACHE_HOME:-$HOME/.cache}/weft-test/m2}
  local jar=$m2/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar
  [ -f "$jar" ] || mvn -q -Dmaven.repo.local="$m2" dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION >&2
  (cd "$W" && unzip -o -q "$jar" 'linux-x64/*')
  echo "$W/linux-x64/libasyncProfiler.so"
}
if [[ " $MODES " == *" ap-"* ]]; then AP=$(ap_lib); fi

# The nothing advice: an empty static method, at every execution and allocation.
javac --release 17 -d "$W/nothing" "$T/Nothing.java"
# The -jit modes' agent.
javac --release 17 -d "$W/cpu" "$T/CompilerCPU.java"
printf 'Premain-Class: weft.bench.CompilerCPU\n' >"$W/cpu.mf"
jar cfm "$W/cpu.jar" "$W/cpu.mf" -C "$W/cpu" .
JIT_OPTS="-XX:-UseDynamicNumberOfCompilerThreads -XX:+CITime -javaagent:$W/cpu.jar"

# The inputs, made once.
javac_workload "$W/src"
mkdir -p "$W/drivers" "$W/kt"
javac --release 17 -d "$W/drivers" "$T/Sql.java"
LUCENE=$(ls $D/lucene-core-8.*.jar $D/lucene-analyzers-common-8.*.jar $D/lucene-queryparser-8.*.jar | tr '\n' ':')
javac --release 17 -cp "$LUCENE" -d "$W/drivers" "$T/Search.java"
for i in $(seq 1 15); do # Kotlin: data classes, generics, lambdas, when
  cat >"$W/kt/K$i.kt" <<KT
package gen
data class Item$i(val name: String, val weight: Int)
class Box$i<T : Comparable<T>>(private val items: MutableList<T> = mutableListOf()) {
    fun add(t: T): Box$i<T> { items.add(t); return this }
    fun sorted(): List<T> = items.sorted()
    fun <R> mapAll(f: (T) -> R): List<R> = items.map(f)
}
fun describe$i(x: Any): String = when (x) {
    is Int -> if (x > $i) "big" else "small"
    is String -> x.toUpperCase()
    is Item$i -> "\${x.name}:\${x.weight}"
    else -> x.toString()
}
fun run$i(): Int {
    val b = Box$i<Int>().add($i).add(3).add(7)
    val items = (1..10).map { Item$i("n\$it", it * $i) }.filter { it.weight % 2 == 0 }
    return b.sorted().sum() + items.map { it.weight }.sum() + b.mapAll { describe$i(it) }.size
}
KT
done
awk 'BEGIN { print "<sales>"; s = 42
  for (i = 0; i < 120000; i++) { s = (s * 1103515245 + 12345) % 2147483648
    printf "<sale id=\"%d\" region=\"r%d\" product=\"p%d\" amount=\"%d\"/>\n", i, s % 13, (s / 13) % 211, (s / 2741) % 1000 }
  print "</sales>" }' >"$W/sales.xml"
awk 'BEGIN { print "<fo:root xmlns:fo=\"http://www.w3.org/1999/XSL/Format\"><fo:layout-master-set>"
  print "<fo:simple-page-master master-name=\"p\" page-height=\"29.7cm\" page-width=\"21cm\" margin=\"2cm\"><fo:region-body/></fo:simple-page-master>"
  print "</fo:layout-master-set><fo:page-sequence master-reference=\"p\"><fo:flow flow-name=\"xsl-region-body\">"
  for (t = 0; t < 40; t++) { printf "<fo:block font-size=\"14pt\" space-before=\"1em\">Table %d</fo:block>\n", t
    print "<fo:table><fo:table-column column-width=\"4cm\"/><fo:table-column column-width=\"9cm\"/><fo:table-column column-width=\"4cm\"/><fo:table-body>"
    for (r = 0; r < 60; r++) printf "<fo:table-row><fo:table-cell><fo:block>%d.%d</fo:block></fo:table-cell><fo:table-cell><fo:block>Row %d of table %d, with some words to wrap across the cell</fo:block></fo:table-cell><fo:table-cell><fo:block>%d</fo:block></fo:table-cell></fo:table-row>\n", t, r, r, t, (t * 60 + r) * 7 % 1000
    print "</fo:table-body></fo:table>" }
  print "</fo:flow></fo:page-sequence></fo:root>" }' >"$W/doc.fo"

FOP_CP=$(printf '%s:' $D/commons-io.jar $D/serializer.jar $D/xalan2.jar $D/xml-apis.jar $D/batik-all.jar $D/commons-logging.jar \
  $D/xercesImpl.jar $D/xmlgraphics-commons.jar $D/xml-apis-ext.jar $D/fontbox2.jar /usr/share/fop/fop-hyph.jar $D/fop.jar)
KLIB=/usr/share/kotlin/kotlinc/lib

# program NAME: the java arguments (JVM options, main class and its
# arguments) of program NAME; @O@ is the run's output directory.
program() {
  case $1 in
  javac) echo "-m jdk.compiler/com.sun.tools.javac.Main -d @O@ $(echo "$W"/src/gen/*.java)" ;;
  ecj) echo "-cp $D/eclipse-jdt-core.jar org.eclipse.jdt.internal.compiler.batch.Main -17 -nowarn -proc:none -d @O@ $W/src/gen" ;;
  kotlinc) echo "-Xmx256M -Xms32M -Dkotlin.home=/usr/share/kotlin/kotlinc -cp $KLIB/kotlin-preloader.jar" \
    "org.jetbrains.kotlin.preloading.Preloader -cp $KLIB/kotlin-compiler.jar org.jetbrains.kotlin.cli.jvm.K2JVMCompiler" \
    "$W/kt -d @O@" ;;
  groovy) echo "-cp $D/groovy-all.jar groovy.ui.GroovyMain $T/work.groovy 200000" ;;
  jython) echo "-Dpython.cachedir.skip=true -cp $D/jython.jar org.python.util.jython $T/work.py 200000" ;;
  h2) echo "-cp $W/drivers:$D/h2.jar Sql jdbc:h2:mem:suite 100000" ;;
  derby) echo "-Dderby.stream.error.file=/dev/null -cp $W/drivers:$D/derby.jar Sql jdbc:derby:memory:suite;create=true 60000" ;;
  saxon) echo "-cp $D/Saxon-HE.jar net.sf.saxon.Transform -s:$W/sales.xml -xsl:$T/report.xsl -o:@O@/report.xml" ;;
  fop) echo "-Djava.awt.headless=true -Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.NoOpLog" \
    "-cp $FOP_CP org.apache.fop.cli.Main -fo $W/doc.fo -txt @O@/doc.txt" ;;
  lucene) echo "-cp $W/drivers:$LUCENE Search 30000" ;;
  *) echo "bench/suite.sh: no program $1 (of $ALL_PROGRAMS)" >&2; return 1 ;;
  esac
}

# mode_command MODE JAVA OUT ARGS: the command line of a run in MODE; the tools
# write their files under OUT.
mode_command() {
  local mode=$1 java=$2 out=$3 args=$4
  case $mode in
  stock) echo "$java $args" ;;
  nothing) echo "$W/weft run -a $T/nothing.weft --advice-cp $W/nothing -- $java $args" ;;
  empty) echo "$W/weft run -a $T/empty.weft --advice-cp $W/nothing -- $java $args" ;;
  stock-jit) echo "$java $JIT_OPTS $args" ;;
  nothing-jit) echo "$W/weft run -a $T/nothing.weft --advice-cp $W/nothing -- $java $JIT_OPTS $args" ;;
  profile-notime) echo "$W/weft profile --no-time --top 0 -o $out/tool -- $java $args" ;;
  profile) echo "$W/weft profile --top 0 -o $out/tool -- $java $args" ;;
  leak) echo "$W/weft leak -o $out/tool -- $java $args" ;;
  recrash) echo "$W/weft recrash -o $out/tool -- $java $args" ;;
  jfr) echo "$java -XX:StartFlightRecording=settings=profile,filename=$out/tool.jfr -Xlog:jfr+startup=off $args" ;;
  ap-cpu) echo "$java -agentpath:$AP=start,event=cpu,file=$out/tool.collapsed $args" ;;
  ap-alloc) echo "$java -agentpath:$AP=start,event=alloc,file=$out/tool.collapsed $args" ;;
  *) echo "bench/suite.sh: no mode $mode (of $ALL_MODES $SPLIT_MODES)" >&2; return 1 ;;
  esac
}

# digest DIR: what a run must reproduce: its standard output (less the
# profilers' own lines) and the files it wrote.
digest() {
  grep -v -e '^Profiling started$' -e '^\[INFO\] ' "$1/stdout" | sha256sum | cut -c1-16
  (cd "$1/files" && find . -type f | sort | xargs -r sha256sum | sha256sum | cut -c1-16)
}

# UNRUNNABLE says why a program is not run on a JDK: it fails there stock.
declare -A UNRUNNABLE=([kotlinc/25]="Debian's kotlinc (1.3) fails on it stock: it cannot parse the version \"25\"")

# measure PROGRAM JDK: the program's modes interleaved; a row each.
measure() {
  local prog=$1 jdk=$2 java=${JAVA_OF[$2]} args r m k c t o want got
  if [ -n "${UNRUNNABLE[$prog/$jdk]:-}" ]; then
    echo "$prog, JDK $jdk: not run: ${UNRUNNABLE[$prog/$jdk]}"
    return 0
  fi
  args=$(program "$prog")
  local modes=($MODES)
  rm -f "$W/times" "$W/jit"
  bench_mark
  for r in $(seq $((1 - WARMUP)) "$RUNS"); do
    for k in "${!modes[@]}"; do
      m=${modes[$k]}
      o=$W/o/$prog-$m
      rm -rf "$o" && mkdir -p "$o/files"
      c=$(mode_command "$m" "$java" "$o" "${args//@O@/$o/files}")
      local TIMEFORMAT='%3R %3U %3S' status=0
      t=$({ time $c >"$o/stdout" 2>"$o/stderr" || echo "exit $?" >"$o/failed"; } 2>&1)
      if [ -f "$o/failed" ]; then
        echo "$prog, JDK $jdk, $m: $(cat "$o/failed"); its stderr ends:" >&2
        tail -5 "$o/stderr" >&2
        FAILED+=("$prog/$jdk/$m")
        return 0 # the next program
      fi
      if [[ $m == *-jit ]]; then # its output is the JIT's: its compile times
        ((r <= 0)) || echo "$k $(compiled "$o")" >>"$W/jit"
      fi
      if [[ $m == *-jit ]]; then
        ((r <= 0)) || echo "$k $t" >>"$W/times"
      elif ((r <= 0)); then # a warm-up round: the output is checked
        got=$(digest "$o")
        if [ "$m" = stock ]; then want=$got; elif [ "$got" != "$want" ]; then
          echo "$prog, JDK $jdk, $m: the output differs from the stock run's" >&2
          DIFFERS+=("$prog/$jdk/$m")
        fi
      else
        echo "$k $t" >>"$W/times"
      fi
    done
  done
  local s_w s_c w c jc jb
  declare -A CPU=() JIT=()
  printf '%-10s JDK %-3s %-16s %8s %8s   %s\n' "$prog" "$jdk" mode 'wall ms' 'cpu ms' 'vs stock (wall, cpu)'
  for k in "${!modes[@]}"; do
    read -r w c < <(awk -v k="$k" '$1 == k { print int($2*1000), int(($3+$4)*1000) }' "$W/times" | median2)
    m=${modes[$k]}
    if ((k == 0)); then
      s_w=$w s_c=$c
      printf '%-32s %8d %8d\n' "  $m" "$w" "$c"
      bench_record "$prog, JDK $jdk" "$m" "$w ms wall, $c ms CPU" "" "" "medians of $RUNS interleaved rounds after $WARMUP checked" \
        "$(mode_command "$m" "$java" '$O' "${args//@O@/\$O/files}")"
      continue
    fi
    local jit=""
    if [[ $m == *-jit ]]; then
      read -r jc jb < <(awk -v k="$k" '$1 == k { print int($2*1000), int($3/1024) }' "$W/jit" | median2)
      jit="; compiler threads ${jc} ms of CPU, ${jb} KB of bytecode compiled"
      JIT[$m]=$jc
    fi
    CPU[$m]=$c
    printf '%-32s %8d %8d   %s %s%s\n' "  $m" "$w" "$c" "$(ratio "$s_w" "$w")" "$(ratio "$s_c" "$c")" "$jit"
    [[ $m == *-jit || $m == empty ]] ||
      echo "$jdk $m $(awk -v a="$s_w" -v b="$w" 'BEGIN { print b / a }') $(awk -v a="$s_c" -v b="$c" 'BEGIN { print b / a }')" >>"$W/ratios"
    bench_record "$prog, JDK $jdk" "$m" "$w ms wall, $c ms CPU: $(ratio "$s_w" "$w") wall, $(ratio "$s_c" "$c") CPU$jit" \
      "stock: $s_w ms wall, $s_c ms CPU" "" "medians of $RUNS interleaved rounds after $WARMUP checked" \
      "$(mode_command "$m" "$java" '$O' "${args//@O@/\$O/files}")"
  done
  split "$prog" "$jdk" "$s_c"
}

# split PROGRAM JDK STOCK-CPU: where nothing's extra CPU goes, from the
# modes of PARTS=split: the fixed cost (empty), compiling (nothing-jit's
# compile time less stock-jit's), and the rest, running the woven code.
split() {
  local extra fixed comp run
  [[ -n ${CPU[empty]:-} && -n ${CPU[nothing]:-} && -n ${JIT[stock-jit]:-} && -n ${JIT[nothing-jit]:-} ]] || return 0
  extra=$((CPU[nothing] - $3)) fixed=$((CPU[empty] - $3)) comp=$((JIT[nothing-jit] - JIT[stock-jit]))
  run=$((extra - fixed - comp))
  local line="nothing's extra CPU $extra ms: fixed $fixed ms, compiling $comp ms, running the woven code $run ms"
  echo "  $line"
  echo "$2 $1 $3 $extra $fixed $comp $run" >>"$W/splits"
  bench_record "$1, JDK $2" "split" "$line" "stock: $3 ms CPU" "" "from the medians above" "PARTS=split bash bench/suite.sh $RUNS"
}

# compiled DIR: the JIT compilers' threads' CPU (s) and the bytecode they
# compiled (bytes), C1's and C2's together, of the run whose output is in
# DIR: CompilerCPU's line on its stderr, -XX:+CITime's on its stdout.
compiled() {
  local cpu bytes
  cpu=$(sed -n 's/^compiler-cpu c1=\([0-9]*\) c2=\([0-9]*\) .*/\1 \2/p' "$1/stderr" | awk '{ print ($1 + $2) / 1000 }')
  bytes=$(awk '/^  C[12] \{speed:/ { for (i = 1; i <= NF; i++) if ($i == "bytes,") b += $(i-1) } END { print b + 0 }' "$1/stdout")
  echo "${cpu:-0} $bytes"
}

# goal MODE: the goal of MODE's geometric mean (CPU, and wall where set).
goal() {
  case $1 in
  nothing) echo "x1.15 cpu" ;;
  profile-notime) echo "x1.3 cpu, x1.6 wall" ;;
  profile) echo "x1.5 cpu" ;;
  leak | recrash) echo "x1.3 cpu" ;;
  esac
}

# geomeans JDK: per mode, the geometric means of the ratios to stock over
# the programs, and a weft mode's against JFR's.
geomeans() {
  local jdk=$1 m line n gw gc jw jc
  printf '\ngeometric means over the programs measured on JDK %s    wall     cpu   goal; against JFR (wall, cpu)\n' "$jdk"
  jw=$(awk -v j="$jdk" '$1 == j && $2 == "jfr" { s += log($3); n++ } END { if (n) printf "%.4f", exp(s/n) }' "$W/ratios")
  jc=$(awk -v j="$jdk" '$1 == j && $2 == "jfr" { s += log($4); n++ } END { if (n) printf "%.4f", exp(s/n) }' "$W/ratios")
  for m in $MODES; do
    [ "$m" = stock ] && continue
    line=$(awk -v j="$jdk" -v m="$m" '$1 == j && $2 == m { w += log($3); c += log($4); n++ }
      END { if (n) printf "%d %.4f %.4f", n, exp(w/n), exp(c/n) }' "$W/ratios")
    [ -n "$line" ] || continue
    read -r n gw gc <<<"$line"
    local vs=""
    if [ -n "$jw" ] && [[ $m != jfr && $m != ap-* ]]; then
      vs="$(awk -v a="$jw" -v b="$gw" 'BEGIN { printf "x%.2f", b / a }') $(awk -v a="$jc" -v b="$gc" 'BEGIN { printf "x%.2f", b / a }')"
    fi
    printf '  %-16s %7s %7s   %-20s %s\n' "$m" "x$(printf '%.2f' "$gw")" "x$(printf '%.2f' "$gc")" "$(goal "$m")" "$vs"
    bench_record "geometric means, JDK $jdk" "$m" \
      "x$(printf '%.2f' "$gw") wall, x$(printf '%.2f' "$gc") CPU over $n programs${vs:+; against JFR: $vs}" \
      "stock" "$(goal "$m")" "geometric mean of the programs' medians of $RUNS rounds" "PROGRAMS=\"$PROGRAMS\" bash bench/suite.sh $RUNS"
  done
}

# splits JDK: the split of nothing's extra CPU summed over the programs
# measured, each part's share.
splits() {
  local line
  line=$(awk -v j="$1" '$1 == j { n++; e += $4; f += $5; c += $6; r += $7 }
    END { if (n && e > 0) printf "%d %d %.0f %.0f %.0f", n, e, 100*f/e, 100*c/e, 100*r/e }' "$W/splits")
  [ -n "$line" ] || return 0
  local n e f c r
  read -r n e f c r <<<"$line"
  line="nothing's extra CPU over $n programs, $e ms: fixed $f %, compiling $c %, running the woven code $r %"
  echo "  $line"
  bench_record "split, JDK $1" "split" "$line" "" "" "sums of the programs' medians of $RUNS rounds" \
    "PARTS=split PROGRAMS=\"$PROGRAMS\" bash bench/suite.sh $RUNS"
}

DIFFERS=() FAILED=()
: >"$W/ratios"
: >"$W/splits"
uptime
for jdk in $JDKS; do
  [ -x "${JAVA_OF[$jdk]:-}" ] || { echo "bench/suite.sh: no JDK $jdk at ${JAVA_OF[$jdk]:-?}" >&2; exit 1; }
  BENCH_JAVA=${JAVA_OF[$jdk]}
  for p in $PROGRAMS; do
    measure "$p" "$jdk"
  done
  geomeans "$jdk"
  splits "$jdk"
done
uptime
bench_end
if ((${#DIFFERS[@]} + ${#FAILED[@]})); then
  ((${#DIFFERS[@]})) && echo "bench/suite.sh: output not the stock run's: ${DIFFERS[*]}" >&2
  ((${#FAILED[@]})) && echo "bench/suite.sh: failed, not measured: ${FAILED[*]}" >&2
  exit 1
fi
