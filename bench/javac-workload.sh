# Sourced by the benchmark scripts: javac_workload DIR writes the javac
# workload, 120 generated classes with generics, lambdas and streams, to
# DIR/gen/C1.java ... C120.java.
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
