# Sourced by the benchmark scripts (which set RUNS, and W, their work
# directory, or have bench_start make it): bench_start [BASE] makes W and
# builds this weft and BASE's; build_base REV builds the weft of a revision
# or tree to compare with; javac_workload DIR writes the javac workload, 120
# generated classes with generics, lambdas and streams, to DIR/gen/C1.java
# ... C120.java; best COMMAND... times a command; rounds times commands side
# by side; medians times commands interleaved; ratio A B prints B/A; section
# prints commands interleaved as a table against the first.
#
# Every figure a script prints is also written as a record (bench_record)
# to $WEFT_BENCH_OUT (default ~/.cache/weft-bench), from which
# bench/figures.sh writes docs/figures.md: bench_begin "$@" opens the
# script's records, bench_record writes one, bench_end keeps them (a run
# that fails keeps the records of the last run that did not).

# A benchmark keeps every JDK it weaves (each tool's, both builds'): a few GB, over weft's default
# cache bound (5 GB) with the caches a WEFT_BENCH_CACHE directory keeps between runs, where an entry
# evicted while another command runs would be woven again, or missing.
export WEFT_CACHE_MAX=${WEFT_CACHE_MAX:-50G}

# The records: one file a run of a script, a line a figure, fields separated by tabs, the
# first line naming them (bench/figures.go reads them).
BENCH_FIELDS='script run section what figure reference goal rounds command jdk machine load_before load_after date version'

bench_begin() { # ARGS...: the script's arguments; opens its records ($BENCH_FILE, kept by
  # bench_end) and notes the machine, weft's version and the load average.
  local name v run
  name=$(basename "$0" .sh)
  run="bash bench/$name.sh"
  for v in ONLY ROWS PARTS CLOCK BEFORE JDK25 LONG TRANSFERS ACCOUNTS WARMUP; do
    [[ $(declare -p "$v" 2>/dev/null) == "declare -x"* ]] || continue
    run="$v=${!v// /\\ } $run" # set by the caller: part of the command
    [[ $v == ONLY || $v == ROWS || $v == PARTS ]] && name="$name-${!v// /-}"
  done
  BENCH_RUN="$run${*:+ $*}"
  BENCH_OUT=${WEFT_BENCH_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/weft-bench}
  mkdir -p "$BENCH_OUT"
  BENCH_FILE=$BENCH_OUT/$name.tsv
  BENCH_MACHINE="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  BENCH_VERSION=$(git describe --always --dirty --tags 2>/dev/null || echo unknown)
  declare -gA BENCH_JDKS=()
  tr ' ' '\t' <<<"$BENCH_FIELDS" >"$BENCH_FILE.new"
  bench_mark
}

bench_mark() { # notes the load average a measurement starts with
  BENCH_LOAD=$(cut -d' ' -f1 /proc/loadavg)
}

bench_record() { # SECTION WHAT FIGURE REFERENCE GOAL ROUNDS COMMAND: one record of the figure
  # measured by COMMAND (on the JDK of $BENCH_JAVA, default java), against REFERENCE (measured in
  # the same run, or empty) and GOAL (or empty), ROUNDS saying how; the load average is
  # bench_mark's and now's. The figure's runs of blanks are one; $W in the command is written as
  # is, the javac workload's files as a glob.
  local f java=${BENCH_JAVA:-java} cmd=${7//"${W:-/nonexistent}"/\$W}
  [ -n "${BENCH_JDKS[$java]:-}" ] || BENCH_JDKS[$java]=$("$java" -XshowSettings:properties -version 2>&1 |
    awk -F' = ' '/^ *java.vendor = / { v = $2 } /^ *java.runtime.version = / { r = $2 } END { print v, r }')
  cmd=$(sed -E 's#(\$W/src/gen/C[0-9]+\.java ?)+#$W/src/gen/*.java #g; s/ +$//' <<<"$cmd")
  f=("$(basename "$0")" "$BENCH_RUN" "$1" "$2" "$(sed -E 's/ +/ /g; s/^ | $//g' <<<"$3")" "$4" "$5" "$6" "$cmd" "${BENCH_JDKS[$java]}"
    "$BENCH_MACHINE" "$BENCH_LOAD" "$(cut -d' ' -f1 /proc/loadavg)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$BENCH_VERSION")
  f=("${f[@]//$'\t'/ }")
  f=("${f[@]//$'\n'/ }")
  (IFS=$'\t'; echo "${f[*]}") >>"$BENCH_FILE.new"
}

bench_cmd() { # WORD...: the command line, a word quoted where the shell would need it
  local a line=""
  for a; do
    [[ $a =~ ^[-A-Za-z0-9_./:=@,+%]+$ ]] || a=${a@Q}
    line="$line${line:+ }$a"
  done
  echo "$line"
}

bench_end() { # keeps the run's records, in place of the last run's
  mv "$BENCH_FILE.new" "$BENCH_FILE"
  echo "records: $BENCH_FILE"
}

bench_start() { # [BASE]: the run's work directory $W (removed at exit), weft's cache
  # (WEFT_BENCH_CACHE's if set, kept), this weft built as $W/weft and, with BASE, that one as
  # $W/weft-base (build_base).
  W=$(mktemp -d /tmp/weft-bench-XXXXXX)
  trap 'rm -rf "$W"' EXIT
  export WEFT_CACHE=${WEFT_BENCH_CACHE:-$W/cache}
  go build -o "$W/weft" ./cmd/weft
  [ -z "${1:-}" ] || build_base "$1"
}

build_base() { # REV-OR-TREE: builds that weft into $W/weft-base: a git revision from its
  # archive, a source tree where it is; -trimpath, so that the same source builds the same
  # binary from one run to the next, and WEFT_BENCH_CACHE keeps its woven JDKs.
  local src=$1
  if [ ! -d "$1" ]; then
    src=$W/base
    mkdir "$src"
    git archive "$1" | tar -x -C "$src"
  fi
  (cd "$src" && go build -trimpath -o "$W/weft-base" ./cmd/weft)
}

javac_workload() {
  mkdir -p "$1/gen"
  for i in $(seq 1 120); do
cat > "$1/gen/C$i.java" <<JAVA
package gen;
import java.util.*;
import java.util.function.*;
import java.util.stream.*;
public class C$i<T extends Comparable<T>> implements Supplier<List<T>> {
    private final List<T> items = new ArrayList<>();
    public C$i<T> add(T t) { items.add(t); return this; }
    public List<T> get() { return items.stream().sorted().collect(Collectors.toList()); }
    public Map<Boolean, Long> split(Predicate<? super T> p) { return items.stream().collect(Collectors.partitioningBy(p, Collectors.counting())); }
    public static int f$i(int n) { return n <= 1 ? n : f$i(n - 1) + f$i(n - 2); }
    public String describe() { return String.format("C$i[%d]%s", items.size(), items.isEmpty() ? "" : " first=" + items.get(0)); }
    enum Mode { A, B, C; Mode next() { return values()[(ordinal() + 1) % values().length]; } }
    record Pair<X, Y>(X x, Y y) {}
    public Optional<Pair<T, Integer>> best() { return items.stream().max(Comparator.naturalOrder()).map(t -> new Pair<>(t, items.indexOf(t))); }
}
JAVA
  done
}

ltw_plugin() { # N: $W/plugin.jar, the load-time weaving programs' N generated classes p.C0 ...
  # extending p.Base and implementing bench.Task (compiled against $W/app, which holds Task)
  mkdir -p "$W/gen/p"
  printf '%s\n' 'package p;' 'public abstract class Base implements bench.Task {' \
    '    protected int base(int x) { return x & 7; }' '}' >"$W/gen/p/Base.java"
  awk -v n="$1" -v dir="$W/gen/p" 'BEGIN {
    for (i = 0; i < n; i++) {
      f = dir "/C" i ".java"
      printf "package p;\npublic class C%d extends Base {\n", i > f
      printf "    private final int[] data = new int[%d];\n", i % 13 + 1 > f
      printf "    public int run(int x) { int s = 0; for (int k = 0; k < data.length; k++) s += helper(x + k); return s + %d; }\n", i > f
      printf "    private int helper(int x) { return x > %d ? base(x) * 3 : base(x) + %d; }\n", i % 17, i > f
      printf "    public String toString() { return \"C%d\"; }\n}\n", i > f
      close(f)
    }
  }'
  javac -cp "$W/app" -d "$W/plugin" "$W/gen/p/"*.java
  (cd "$W/plugin" && jar cf "$W/plugin.jar" p)
}

best() { # "WALL CPU": the best wall and user+sys CPU times (ms) of RUNS runs, children included
  local bw=999999999 bc=999999999
  "$@" >/dev/null 2>&1 # fills the caches
  for _ in $(seq 1 "$RUNS"); do
    local w c
    /usr/bin/time -o "$W/time" -f '%e %U %S' "$@" >/dev/null 2>&1
    read -r w c < <(tail -1 "$W/time" | awk '{printf "%d %d\n", $1*1000, ($2+$3)*1000}')
    (( w < bw )) && bw=$w
    (( c < bc )) && bc=$c
  done
  echo "$bw $bc"
}
ratio() { echo "$1 $2" | awk '{printf "x%.2f", $2/$1}'; }

rounds() { # "JAVA ARGS"...: runs JAVA ARGS $ROUND_CMD for each (split on blanks) once a round, RUNS
  # rounds after a warm-up round; prints a line per ARGS: best wall, best CPU (ms) and the median
  # of the rounds' CPU ratios to the first ARGS (the machine's load drifts: the commands of a round
  # share it).
  local k r
  rm -f "$W/rounds"
  for r in $(seq 0 "$RUNS"); do
    k=0
    for a in "$@"; do
      /usr/bin/time -o "$W/time" -f '%e %U %S' $a $ROUND_CMD >/dev/null 2>&1
      ((r > 0)) && tail -1 "$W/time" | awk -v r="$r" -v k="$k" '{printf "%d %d %d %d\n", r, k, $1*1000, ($2+$3)*1000}' >>"$W/rounds"
      k=$((k + 1))
    done
  done
  sort -n -k1,1 -k2,2 "$W/rounds" | awk -v n=$# '
    { if (!($2 in w) || $3 < w[$2]) w[$2] = $3
      if (!($2 in c) || $4 < c[$2]) c[$2] = $4
      if ($2 == 0) base[$1] = $4
      ratio[$2, ++m[$2]] = $4 / base[$1] }
    END { for (k = 0; k < n; k++) {
            for (i = 1; i <= m[k]; i++) for (j = i + 1; j <= m[k]; j++)
              if (ratio[k, j] < ratio[k, i]) { t = ratio[k, i]; ratio[k, i] = ratio[k, j]; ratio[k, j] = t }
            printf "%d %d %.2f\n", w[k], c[k], ratio[k, int((m[k] + 1) / 2)] } }'
}

medians() { # "COMMAND"...: runs each command (split on blanks) once a round, RUNS rounds after
  # WARMUP warm-up rounds (1 unless set), interleaved (the machine's load drifts: a round's
  # commands share it); prints a line per command: the median wall and user+sys CPU times (ms) of
  # its runs. Timed by bash's time (to the ms; /usr/bin/time rounds to 10 ms, a tenth of a JDK 25
  # start-up).
  local k r c t TIMEFORMAT='%3R %3U %3S'
  rm -f "$W/medians"
  for r in $(seq $((1 - ${WARMUP:-1})) "$RUNS"); do
    k=0
    for c in "$@"; do
      t=$({ time $c >/dev/null 2>&1; } 2>&1)
      ((r > 0)) && echo "$k $t" >>"$W/medians"
      k=$((k + 1))
    done
  done
  for k in $(seq 0 $(($# - 1))); do
    awk -v k="$k" '$1 == k { print int($2*1000), int(($3+$4)*1000) }' "$W/medians" | median2
  done
}
median2() { # the medians of the two columns of its input's lines
  local in w c
  in=$(cat)
  w=$(cut -d' ' -f1 <<<"$in" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  c=$(cut -d' ' -f2 <<<"$in" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  echo "$w $c"
}

# section TITLE NAME COMMAND NAME COMMAND ...: the commands interleaved
# (medians), a row each, the first the stock run the others are compared
# with; with BASE set, every command of $W/weft again with $W/weft-base,
# the BASE weft, in a row of its own ("  BASE: NAME").
section() {
  local title=$1 names=() cmds=() n c i
  shift
  while (($#)); do
    names+=("$1")
    cmds+=("$2")
    if [ -n "${BASE:-}" ] && [[ $2 == "$W/weft "* ]]; then
      names+=("  BASE: $1")
      cmds+=("$W/weft-base ${2#"$W/weft "}")
    fi
    shift 2
  done
  bench_mark
  mapfile -t out < <(medians "${cmds[@]}")
  printf '%-50s wall ms   cpu ms   vs stock (wall, cpu)\n' "$title"
  read -r s_w s_c <<<"${out[0]}"
  local how="medians of $RUNS interleaved rounds after ${WARMUP:-1} warm-up" what goal
  for i in "${!names[@]}"; do
    read -r w c <<<"${out[$i]}"
    what=${names[$i]#"${names[$i]%%[! ]*}"} goal=""
    [[ $what =~ ^(.*)\ \(goal\ (.*)\)$ ]] && what=${BASH_REMATCH[1]} goal=${BASH_REMATCH[2]}
    if ((i == 0)); then
      printf '%-50s %7d  %7d\n' "${names[$i]}" "$w" "$c"
      bench_record "$title" "$what" "$w ms wall, $c ms CPU" "" "" "$how" "${cmds[$i]}"
    else
      printf '%-50s %7d  %7d   %s %s\n' "${names[$i]}" "$w" "$c" "$(ratio "$s_w" "$w")" "$(ratio "$s_c" "$c")"
      bench_record "$title" "$what" "$w ms wall, $c ms CPU: $(ratio "$s_w" "$w") wall, $(ratio "$s_c" "$c") CPU" \
        "${names[0]}: $s_w ms wall, $s_c ms CPU" "$goal" "$how" "${cmds[$i]}"
    fi
  done
}

