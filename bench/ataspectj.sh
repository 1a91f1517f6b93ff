#!/usr/bin/env bash
# @AspectJ aspects under weft (docs/ataspectj.md), side by side with the same
# before advice in a .weft file and with AspectJ's own load-time weaver
# (Debian's aspectjweaver, -javaagent) running the same @AspectJ aspect, on
# JDK 17, interleaved rounds (medians):
#
#   load time   bench/testdata/ltw's program loads N generated classes
#               through a URLClassLoader of its own and runs each once: the
#               aspect counts their methods' executions, so weaving them as
#               they load is most of the work (weft: cold, the load-time
#               cache emptied before each run, and warm)
#   run time    bench.Hot computes fib(36): 48 million executions advised,
#               the cost of calling the advice
#
# The aspect is bench.at.Count (bench/testdata/ataspectj), listed by its
# META-INF/aop.xml; count.weft is its .weft twin, whose advice (Hits.hit)
# does the same work in a static method. Every command's standard
# output is first checked to be stock's.
#
# Usage: bash bench/ataspectj.sh [RUNS] [N]   (repository root; JDK 17, Go, Debian's aspectj)
set -euo pipefail
RUNS=${1:-3}
N=${2:-4000}
. bench/common.sh
bench_begin "$@"
bench_start
T=bench/testdata/ltw A=bench/testdata/ataspectj AJ=/usr/share/java

javac -d "$W/adv" $A/Hits.java
javac -d "$W/app" $T/Main.java $T/Task.java $A/Hot.java
javac -g -cp "$AJ/aspectjrt.jar" -d "$W/aspect" $A/Count.java
cp -r $A/META-INF "$W/aspect/"
ltw_plugin "$N" # $W/plugin.jar

# A run with the load-time cache emptied first: weaving every class anew.
cat > "$W/cold" <<SH
#!/bin/sh
rm -rf "$WEFT_CACHE"/ltw-*
exec "\$@"
SH
chmod +x "$W/cold"

DOTWEFT="$W/weft run -a $A/count.weft --advice-cp $W/adv --modules java.base --Xlint ignore --"
ATWEFT="$W/weft run --modules java.base --Xlint ignore --"
CP="$W/app:$W/aspect:$AJ/aspectjrt.jar"
AGENT="-javaagent:$AJ/aspectjweaver.jar"

# check EXPECTED COMMAND...: the command's standard output is EXPECTED's (and
# weaves the JDK into the cache before anything is timed).
check() {
  local want=$1
  shift
  if ! diff <("$@" 2>"$W/err") "$want" >/dev/null; then
    echo "output differs from stock's: $*" >&2
    cat "$W/err" >&2
    exit 1
  fi
  grep -q '^count: [1-9][0-9]* hits' "$W/err" || { echo "nothing counted: $*" >&2; cat "$W/err" >&2; exit 1; }
}
java -cp "$W/app" bench.Main "$W/plugin.jar" "$N" >"$W/load.out" 2>/dev/null
java -cp "$W/app" bench.Hot 36 >"$W/hot.out" 2>/dev/null
for prog in "bench.Main $W/plugin.jar $N:load" "bench.Hot 36:hot"; do
  args=${prog%:*} out=$W/${prog##*:}.out
  check "$out" $DOTWEFT java -cp "$W/app" $args
  check "$out" $ATWEFT java $AGENT -cp "$CP" $args
  check "$out" java $AGENT -cp "$CP" $args
done
uptime

section "@AspectJ: $N classes loaded at run time, each method's executions counted" \
  "stock" "java -cp $W/app bench.Main $W/plugin.jar $N" \
  ".weft advice, weft run, cold load-time cache" "$W/cold $DOTWEFT java -cp $W/app bench.Main $W/plugin.jar $N" \
  "@AspectJ aspect, weft run, cold load-time cache" "$W/cold $ATWEFT java $AGENT -cp $CP bench.Main $W/plugin.jar $N" \
  ".weft advice, weft run, warm load-time cache" "$DOTWEFT java -cp $W/app bench.Main $W/plugin.jar $N" \
  "@AspectJ aspect, weft run, warm load-time cache" "$ATWEFT java $AGENT -cp $CP bench.Main $W/plugin.jar $N" \
  "@AspectJ aspect, AspectJ's load-time weaver" "java $AGENT -cp $CP bench.Main $W/plugin.jar $N"
section "@AspectJ: fib(36), 48 million executions advised" \
  "stock" "java -cp $W/app bench.Hot 36" \
  ".weft advice, weft run" "$DOTWEFT java -cp $W/app bench.Hot 36" \
  "@AspectJ aspect, weft run" "$ATWEFT java $AGENT -cp $CP bench.Hot 36" \
  "@AspectJ aspect, AspectJ's load-time weaver" "java $AGENT -cp $CP bench.Hot 36"
uptime
bench_end
