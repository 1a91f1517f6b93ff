#!/usr/bin/env bash
# Figures for weaving the JDK, side by side:
#   1. time to weave all modules with the counting aspect (examples/count:
#      before advice at every method and constructor execution);
#   2. a javac workload on the stock JDK vs the woven one;
#   3. hello-world start-up: stock, stock without class data sharing, the
#      woven JDK as --patch-module patches and as a runtime image (weft jdk
#      --image, with its own CDS archive).
# Usage: bash bench/jdk.sh [RUNS]   (from the repository root; JDK 17 and Go on PATH)
set -euo pipefail
RUNS=${1:-5}
W=$(mktemp -d /tmp/weft-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
export WEFT_CACHE=$W/cache

go build -o "$W/weft" ./cmd/weft
"$W/weft" runtime -o "$W/weft-rt.jar"
javac -cp "$W/weft-rt.jar" -d "$W/adv" examples/count/Counter.java

# 1. Weave time: `go test -bench` of the image driver (weaver + frames +
#    writing the patch tree), then the CLI end to end, cold.
go test ./weaver/jdk -run '^$' -bench BenchmarkWeaveAllModules -benchtime 1x | grep -E '^Benchmark|classes'
/usr/bin/time -f 'weft jdk, all modules, CLI end to end: %e s wall, %U s user + %S s sys CPU' \
  "$W/weft" jdk -q -a examples/count/count.weft --advice-cp "$W/adv" -o "$W/jdk"

# The same weaving linked into a runtime image (weaving again, then jlink
# and the CDS archives).
/usr/bin/time -f 'weft jdk --image, all modules, CLI end to end: %e s wall, %U s user + %S s sys CPU' \
  "$W/weft" jdk -q -a examples/count/count.weft --advice-cp "$W/adv" --image "$W/img"

# A javac workload: 120 generated classes with generics, lambdas, streams.
. bench/common.sh
javac_workload "$W/src"
ARGS="@$W/jdk/weft.args -Dcount.quiet=1"
uptime
JAVAC="-m jdk.compiler/com.sun.tools.javac.Main -d $W/out $W/src/gen/*.java"
read -r s_w s_c < <(best java $JAVAC)
read -r w_w w_c < <(best java $ARGS $JAVAC)
printf 'javac, 120 files (wall / cpu ms): stock %6d / %6d   woven, counting everywhere %6d / %6d   %s wall, %s cpu\n' \
  "$s_w" "$s_c" "$w_w" "$w_c" "$(ratio "$s_w" "$w_w")" "$(ratio "$s_c" "$w_c")"

mkdir -p "$W/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$W/hello/Hello.java"
javac -d "$W/hello" "$W/hello/Hello.java"
read -r s_w s_c < <(best java -cp "$W/hello" Hello)
read -r n_w n_c < <(best java -Xshare:off -cp "$W/hello" Hello)
read -r w_w w_c < <(best java $ARGS -cp "$W/hello" Hello)
read -r i_w i_c < <(best "$W/img/bin/java" -Dcount.quiet=1 -cp "$W/hello" Hello)
printf 'hello world (wall / cpu ms): stock %5d / %5d   stock without CDS %5d / %5d   woven, patches %5d / %5d   woven, image %5d / %5d   image %s wall, %s cpu\n' \
  "$s_w" "$s_c" "$n_w" "$n_c" "$w_w" "$w_c" "$i_w" "$i_c" "$(ratio "$s_w" "$i_w")" "$(ratio "$s_c" "$i_c")"
