#!/usr/bin/env bash
# weft's tools side by side with the JDK Flight Recorder (JFR), on the same
# workloads in the same rounds (docs/profile.md, "weft and JFR"):
#   1. javac compiling bench/common.sh's 120 generated files, JDK 17: stock;
#      JFR's method sampling with the JDK's "profile" settings (a Java
#      sample every 10 ms, settings=profile: every other event of that file
#      too, as users run it); the same with method-profiling=max (a sample
#      every 1 ms); weft profile --no-time (calls and allocations per
#      calling context); weft profile (and wall time);
#   2. the same on JDK 25, with JEP 520's method timing (default settings,
#      method-timing=C::m;... naming the ten methods weft profile ranks first
#      on that JDK, from a run before the rounds) instead of 1 ms sampling;
#   3. fib(30), 40 rounds (bench/testdata/Work.java: small methods, 108 M
#      calls), JDK 25: stock; JFR's profile settings; method timing of
#      work.Work::fib; weft profile --no-time; weft profile;
#   4. leaks, JDK 17: README's demo (examples/leak/demo, -Xmx32m) and
#      bench/testdata/jfr/Audit.java (-Xmx64m: a static map of lists of
#      String.format's lines: every growing object is allocated inside the
#      JDK): stock; JFR's profile settings with path-to-gc-roots=true (its
#      jdk.OldObjectSample events with their allocation stacks and the
#      paths from the GC roots to them); weft leak.
# Each part runs its commands interleaved, one run of each a round, RUNS
# rounds after a warm-up round (bench/common.sh's rounds; the warm-up fills
# weft's cache): the best wall and CPU (user + system, weft's own process
# and the JVM it runs included) of each, and the median over the rounds of
# each command's ratio to stock's run of the same round, CPU and wall (the
# machine's load drifts; a round's commands share it).
# Every round's figures are printed too: a command that failed is timed
# as it ran (a run of 0.2 s where its others took seconds), and the script
# goes on.
# Then what each tool reported in the last round, read from its files (JFR's
# with the JDK's own jfr tool: jfr print --events ...): samples against
# executions, the methods and calling contexts each saw, the top ten
# methods by self time of each (JFR: the top frame of its samples; weft:
# self run-ns, as weft profile prints them) and how many they share; method
# timing's invocations against weft's calls of the same methods; for the
# leaks, whether each names the program's leaking site (JFR: the program's
# nearest frame in an old object's allocation stack, and the field its path
# from the GC roots ends at; weft leak: the growing contexts naming it), and
# on the demo's bounded cache (Requests fixed) what each still reports.
# Records (bench/common.sh): each part's rows.
# PARTS (environment) chooses the parts, default "17 25 fib leak".
# WEFT_BENCH_CACHE names a cache directory to keep between runs (the woven
# JDKs take minutes each).
# Usage: [PARTS="17 25 fib leak"] bash bench/jfr.sh [RUNS]   (from the repository root; JDK 17 as java, JDK 25, Go)
set -euo pipefail
RUNS=${1:-3}
PARTS=${PARTS:-17 25 fib leak}
has() { [[ " $PARTS " == *" $1 "* ]]; }
J25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=${WEFT_BENCH_CACHE:-$W/cache}

go build -o "$W/weft" ./cmd/weft
. bench/common.sh
bench_begin "$@"
javac_workload "$W/src"
javac -d "$W/work" bench/testdata/Work.java
javac -d "$W/demo" examples/leak/demo/Requests.java
javac -d "$W/audit" bench/testdata/jfr/Audit.java
WEFT=$W/weft
JFR_PROFILE=-XX:StartFlightRecording:settings=profile
ROUND_CMD= # rounds runs each command as given

measure() { # COMMAND...: rounds of the commands, their lines in $W/rows, the commands kept for table
  CMDS=("$@")
  bench_mark
  rounds "$@" >"$W/rows" || true # a failed run must not end the script
}

table() { # TITLE NAME...: rounds' lines (in $W/rows) and the median wall ratios of $W/rounds, a row per NAME,
  # each recorded with its command (CMDS)
  local title=$1 lines walls i=0 ref="" how="best wall and CPU of $RUNS interleaved rounds after a warm-up; ratios the medians of the rounds'"
  shift
  lines=$(cat "$W/rows")
  echo "rounds (round, command, wall ms, cpu ms): $(tr '\n' ' ' <"$W/rounds")"
  walls=$(sort -n -k1,1 -k2,2 "$W/rounds" | awk '
    { if ($2 == 0) base[$1] = $3; r[$2, ++m[$2]] = $3 / base[$1]; if ($2 + 1 > n) n = $2 + 1 }
    END { for (k = 0; k < n; k++) {
            for (i = 1; i <= m[k]; i++) for (j = i + 1; j <= m[k]; j++)
              if (r[k, j] < r[k, i]) { t = r[k, i]; r[k, i] = r[k, j]; r[k, j] = t }
            printf "%.2f\n", r[k, int((m[k] + 1) / 2)] } }')
  printf '\n%-44s %8s %8s %9s %9s\n' "$title" 'wall ms' 'cpu ms' 'x wall' 'x cpu'
  paste -d' ' <(echo "$lines") <(echo "$walls") | while read -r w c cr wr; do
    printf '%-44s %8d %8d %9s %9s\n' "$1" "$w" "$c" "x$wr" "x$cr"
    if ((i == 0)); then
      ref="$1: $w ms wall, $c ms CPU"
      bench_record "$title" "$1" "$w ms wall, $c ms CPU" "" "" "$how" "${CMDS[i]}"
    else
      bench_record "$title" "$1" "$w ms wall, $c ms CPU: x$wr wall, x$cr CPU" "$ref" "" "$how" "${CMDS[i]}"
    fi
    i=$((i + 1))
    shift
  done
}

samples() { # JFR FILE: "samples methods self-methods stacks cut" of its jdk.ExecutionSample events; the top frames, by samples, to FILE.top
  "$J25/bin/jfr" print --events jdk.ExecutionSample --stack-depth 64 "$1" | awk -v top="$1.top" '
    /^jdk.ExecutionSample/ { n++; d = 0; key = ""; next }
    /^  stackTrace = \[/ { in_st = 1; next }
    in_st && /^  \]/ { in_st = 0; if (!(key in stacks)) { stacks[key] = 1; ns++ }; next }
    in_st && /^    \.\.\.$/ { cut++; next }
    in_st { f = $0; sub(/^ +/, "", f); sub(/\(.*/, "", f)
            if (d++ == 0) { if (!(f in self)) nself++; self[f]++ }
            if (!(f in seen)) { seen[f] = 1; nm++ }
            key = key ";" f }
    END { for (f in self) print self[f], f > top; printf "%d %d %d %d %d\n", n, nm, nself, ns, cut }'
  sort -k1,1nr -o "$1.top" "$1.top"
}

contexts() { # PROFILE DIR: "contexts methods executions" of its profile.cct; self run-ns and calls by frame to DIR/frames
  awk -v out="$1/frames" '
    /^metrics/ { for (i = 2; i <= NF; i++) col[$i] = i + 2; next }
    /^f / { name[nf++] = substr($0, 3); next }
    /^n / { f = name[$3]; if (f ~ /^new /) next
            if (!(f in calls)) nm++
            nc++; calls[f] += $(col["calls"]); all += $(col["calls"])
            if ("wall-ns" in col) { r = $(col["wall-ns"]) - ("wait-ns" in col ? $(col["wait-ns"]) : 0); if (r > 0) run[f] += r } }
    END { for (f in calls) printf "%.0f %.0f %s\n", run[f], calls[f], f > out; printf "%d %d %.0f\n", nc, nm, all }' "$1/profile.cct"
  sort -k1,1nr -o "$1/frames" "$1/frames"
}

shared() { # JFR.top WEFT-FRAMES: how many of JFR's first ten frames are among weft's first ten
  awk 'NR == FNR { if (FNR <= 10) a[$3] = 1; next } FNR <= 10 && ($2 in a) { n++ } END { print n + 0 }' "$2" "$1"
}

sidebyside() { # JFR.top WEFT-FRAMES: the first ten of each, side by side
  printf '  %-66s %s\n' 'JFR: samples, top frame' 'weft: self run-ns (ms), frame'
  paste -d'|' <(head -10 "$1") <(head -10 "$2" | awk '{ printf "%d %s\n", $1 / 1e6, $3 }') |
    awk -F'|' '{ printf "  %-66s %s\n", substr($1, 1, 66), $2 }'
}

mtiming() { # JFR FILE: "invocations method" per timed method, overloads summed
  "$J25/bin/jfr" print --events jdk.MethodTiming "$1" | awk '
    /method = / { m = $3; sub(/\(.*/, "", m) } /invocations = / { gsub(/,/, "", $3); s[m] += $3 }
    END { for (m in s) print s[m], m }'
}
oldobjects() { # JFR FILE SITE: "samples naming-SITE top-program-frame/count top-root-field/count"
  "$J25/bin/jfr" print --events jdk.OldObjectSample --stack-depth 64 "$1" | awk -v site="$2" '
    function flush() { if (!n) return; p = prog == "" ? "(JDK-frames-only)" : prog; pf[p]++; if (prog == site) hit++; if (last != "") rf[last]++ }
    /^jdk.OldObjectSample/ { flush(); n++; prog = ""; last = ""; next }
    /^  object = +\[/ { in_o = 1; next }
    in_o && /^  \]/ { in_o = 0; next }
    in_o { l = $0; sub(/^ +/, "", l); if (last == "" && l ~ / : java.lang.Class Class Name: /) { split(l, a, " : "); split(l, cn, "Class Name: "); last = cn[2] "." a[1] }; next }
    /^  stackTrace = \[/ { in_st = 1; next }
    in_st && /^  \]/ { in_st = 0; next }
    in_st && prog == "" { f = $0; sub(/^ +/, "", f); sub(/\(.*/, "", f)
                          if (f !~ /^(java|javax|jdk|sun|com\.sun)\./ && f != "...") prog = f }
    END { flush(); for (p in pf) if (pf[p] > bp) { bp = pf[p]; b = p }
          for (r in rf) if (rf[r] > br) { br = rf[r]; rb = r }
          printf "%d %d %s/%d %s/%d\n", n, hit, b, bp, (rb == "" ? "-" : rb), br }'
}
growing() { # LEAK-DIR SITE: "growing naming-SITE" of its leak.txt
  awk -v site="$2" '
    /^most live bytes/ { exit }
    /^ *[0-9]+\. new / { g++ }
    g && /^    in / && $2 == site { named[g] = 1 }
    END { for (i in named) c++; printf "%d %d\n", g, c }' "$1/leak.txt"
}
uptime

if has 17; then # 1. javac, JDK 17.
  JAVAC="javac -d $W/out $W/src/gen/*.java"
  NAMES=(stock 'JFR profile settings (10 ms)' 'JFR profile, method-profiling=max (1 ms)' 'weft profile --no-time' 'weft profile')
  measure "$JAVAC" \
    "javac -J$JFR_PROFILE,filename=$W/s17.jfr -d $W/out $W/src/gen/*.java" \
    "javac -J$JFR_PROFILE,method-profiling=max,filename=$W/m17.jfr -d $W/out $W/src/gen/*.java" \
    "$WEFT profile --no-time --top 0 -o $W/c17 -- $JAVAC" \
    "$WEFT profile --top 0 -o $W/t17 -- $JAVAC"
  table 'javac, 120 files, JDK 17' "${NAMES[@]}"
  uptime
fi

if has 25; then # 2. javac, JDK 25: weft's ten first methods first, for method timing.
  JAVAC25="$J25/bin/javac -d $W/out $W/src/gen/*.java"
  $WEFT profile --top 0 -o "$W/t25" -- $JAVAC25 >/dev/null 2>&1 || echo "weft profile failed: $JAVAC25"
  mkdir -p "$W/t25"
  [ -f "$W/t25/profile.cct" ] && contexts "$W/t25" >/dev/null || echo "0 0 com.sun.tools.javac.code.Type.hasTag" >"$W/t25/frames"
  filter=$(awk 'n < 10 && $3 ~ /^[A-Za-z0-9_.$]+\.[A-Za-z0-9_$]+$/ && $3 !~ /\$\$|LambdaForm|\.<|Holder/ {
                  sub(/\.[^.]*$/, "::&", $3); sub(/::\./, "::", $3); printf "%s%s", (n++ ? ";" : ""), $3 }' "$W/t25/frames")
  echo "method timing of: $filter"
  NAMES=(stock 'JFR profile settings (10 ms)' 'JFR method timing, weft'"'"'s top 10' 'weft profile --no-time' 'weft profile')
  measure "$JAVAC25" \
    "$J25/bin/javac -J$JFR_PROFILE,filename=$W/s25.jfr -d $W/out $W/src/gen/*.java" \
    "$J25/bin/javac -J-XX:StartFlightRecording:method-timing=$filter,filename=$W/mt25.jfr -d $W/out $W/src/gen/*.java" \
    "$WEFT profile --no-time --top 0 -o $W/c25 -- $JAVAC25" \
    "$WEFT profile --top 0 -o $W/t25 -- $JAVAC25"
  BENCH_JAVA=$J25/bin/java table 'javac, 120 files, JDK 25' "${NAMES[@]}"
  uptime
fi

if has fib; then # 3. fib, JDK 25.
  FIB="-cp $W/work work.Work fib 40"
  NAMES=(stock 'JFR profile settings (10 ms)' 'JFR method timing of work.Work::fib' 'weft profile --no-time' 'weft profile')
  measure "$J25/bin/java $FIB" \
    "$J25/bin/java $JFR_PROFILE,filename=$W/sf.jfr $FIB" \
    "$J25/bin/java -XX:StartFlightRecording:method-timing=work.Work::fib,filename=$W/mf.jfr $FIB" \
    "$WEFT profile --no-time --top 0 -o $W/cf -- $J25/bin/java $FIB" \
    "$WEFT profile --top 0 -o $W/tf -- $J25/bin/java $FIB"
  BENCH_JAVA=$J25/bin/java table 'fib(30) x 40, JDK 25' "${NAMES[@]}"
  uptime
fi

if has leak; then # 4. Leaks, JDK 17.
  JFR_LEAK=$JFR_PROFILE,path-to-gc-roots=true
  DEMO="-Xmx32m -cp $W/demo Requests"
  AUDIT="-Xmx64m -cp $W/audit Audit"
  NAMES=(stock 'JFR profile settings, path-to-gc-roots' 'weft leak')
  measure "java $DEMO" "java $JFR_LEAK,filename=$W/ld.jfr $DEMO" "$WEFT leak -o $W/ld -- java $DEMO"
  table "README's leak demo, JDK 17" "${NAMES[@]}"
  measure "java $AUDIT" "java $JFR_LEAK,filename=$W/la.jfr $AUDIT" "$WEFT leak -o $W/la -- java $AUDIT"
  table 'Audit (the JDK allocates what grows), JDK 17' "${NAMES[@]}"
  java $JFR_LEAK,filename=$W/lf.jfr $DEMO fixed >/dev/null 2>&1
  $WEFT leak -o "$W/lf" -- java $DEMO fixed >/dev/null 2>&1
  uptime
fi
bench_end

# What each reported, from the last round's files.
for v in 17 25; do
  has $v || continue
  echo
  for j in s$v m$v; do
    [ -f "$W/$j.jfr" ] || continue
    read -r n nm nself ns cut < <(samples "$W/$j.jfr")
    printf 'javac JDK %s, JFR %-4s %8d samples; %5d methods seen, %4d on top; %5d distinct stacks, %d cut at 64 frames\n' \
      "$v" "$j" "$n" "$nm" "$nself" "$ns" "$cut"
  done
  stats=$(contexts "$W/t$v") # done with its frames file before they are read
  read -r nc nm all <<<"$stats"
  printf 'javac JDK %s, weft profile %.0f executions; %5d methods; %d calling contexts\n' "$v" "$all" "$nm" "$nc"
  printf 'javac JDK %s: of JFR'"'"'s top ten frames by samples, %s among weft'"'"'s top ten by self run-ns\n' "$v" "$(shared "$W/s$v.jfr.top" "$W/t$v/frames")"
  sidebyside "$W/s$v.jfr.top" "$W/t$v/frames"
  if [ -f "$W/m$v.jfr.top" ]; then
    printf 'javac JDK %s, 1 ms samples: %s of the top ten shared\n' "$v" "$(shared "$W/m$v.jfr.top" "$W/t$v/frames")"
    sidebyside "$W/m$v.jfr.top" "$W/t$v/frames"
  fi
done
if has 25; then
  echo 'JEP 520 method timing against weft'"'"'s calls (JDK 25; both sum overloads; weft every context):'
  mtiming "$W/mt25.jfr" | while read -r inv m; do
    printf '  %-64s JFR %12d   weft %12.0f\n' "$m" "$inv" "$(awk -v m="$m" '$3 == m { print $2 }' "$W/t25/frames")"
  done
fi
if has fib; then
  read -r inv _ < <(mtiming "$W/mf.jfr")
  contexts "$W/tf" >/dev/null
  printf 'fib: JFR method timing %d invocations of work.Work.fib; weft %s calls; 40 x fib(30) is %d\n' "$inv" \
    "$(awk '$3 == "work.Work.fib" { print $2 }' "$W/tf/frames")" $((40 * 2692537))
  read -r n nm nself ns cut < <(samples "$W/sf.jfr")
  printf 'fib: JFR sampling %d samples, top frame %s\n' "$n" "$(head -1 "$W/sf.jfr.top")"
fi
if has leak; then
  echo
  echo 'leaks: does each name the leaking site?'
  for k in "ld Requests.handle demo" "la Audit.record Audit" "lf Requests.handle demo-fixed"; do
    read -r d site what <<<"$k"
    read -r n hit top root < <(oldobjects "$W/$d.jfr" "$site")
    printf '%-11s JFR: %3d old-object samples, %3d whose program frame nearest the allocation is %s; most: %s; the static field their path from a GC root ends at, most: %s\n' "$what" "$n" "$hit" "$site" "$top" "$root"
    read -r g gn < <(growing "$W/$d" "$site")
    printf '%-11s weft leak: %d growing contexts, %d naming %s; %s\n' "$what" "$g" "$gn" "$site" "$(head -1 "$W/$d/leak.txt")"
  done
  for d in ld la lf; do echo "== $d/leak.txt"; sed -n '1,/^most live bytes/p' "$W/$d/leak.txt"; done
fi
