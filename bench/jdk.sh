#!/usr/bin/env bash
# Figures for weaving the JDK (issue 5), side by side:
#   1. time to weave all modules with the counting aspect (examples/count:
#      before advice at every method and constructor execution);
#   2. a javac workload on the stock JDK vs the woven one;
#   3. hello-world start-up, stock vs woven.
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
start=$(date +%s.%N)
"$W/weft" jdk -q -a examples/count/count.weft --advice-cp "$W/adv" -o "$W/jdk"
end=$(date +%s.%N)
printf 'weft jdk, all modules, CLI end to end: %.2f s\n' "$(echo "$end - $start" | bc)"

# A javac workload: 120 generated classes with generics, lambdas, streams.
mkdir -p "$W/src/gen"
for i in $(seq 1 120); do
cat > "$W/src/gen/C$i.java" <<JAVA
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
ARGS="@$W/jdk/weft.args -Dcount.quiet=1"
best() { # best wall time (s) of RUNS runs of a command
  local b=999999
  for _ in $(seq 1 "$RUNS"); do
    local s e t
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    t=$(( (e - s) / 1000000 )); (( t < b )) && b=$t
  done
  echo "$b"
}
JAVAC="-m jdk.compiler/com.sun.tools.javac.Main -d $W/out $W/src/gen/*.java"
s_javac=$(best java $JAVAC)
w_javac=$(best java $ARGS $JAVAC)
printf 'javac, 120 files:  stock %5d ms   woven (counting everywhere) %5d ms   x%.2f\n' "$s_javac" "$w_javac" "$(echo "$w_javac / $s_javac" | bc -l)"

mkdir -p "$W/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$W/hello/Hello.java"
javac -d "$W/hello" "$W/hello/Hello.java"
s_hello=$(best java -cp "$W/hello" Hello)
n_hello=$(best java -Xshare:off -cp "$W/hello" Hello)
w_hello=$(best java $ARGS -cp "$W/hello" Hello)
printf 'hello world start: stock %5d ms   stock without CDS %5d ms   woven %5d ms\n' "$s_hello" "$n_hello" "$w_hello"
