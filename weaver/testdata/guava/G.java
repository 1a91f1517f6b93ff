import com.google.common.collect.*;
import com.google.common.base.*;
import com.google.common.cache.*;
import java.util.concurrent.*;
public class G {
    public static void main(String[] a) throws Exception {
        ImmutableList<String> l = ImmutableList.of("b", "a", "c");
        System.out.println(Ordering.natural().sortedCopy(l) + " " + Joiner.on('-').join(l) + " " + Splitter.on(',').splitToList("x,y,z"));
        Multimap<String, Integer> m = ArrayListMultimap.create();
        for (int i = 0; i < 100; i++) m.put("k" + (i % 7), i);
        System.out.println(m.keySet().size() + " " + m.get("k3").size() + " " + CharMatcher.digit().retainFrom("a1b2c3"));
        LoadingCache<Integer, Integer> c = CacheBuilder.newBuilder().maximumSize(10).build(CacheLoader.from(x -> x * x));
        int s = 0; for (int i = 0; i < 50; i++) s += c.get(i % 20);
        System.out.println("cache " + s + " " + HashBiMap.create(ImmutableMap.of(1, "one")).inverse());
        ExecutorService ex = Executors.newFixedThreadPool(4);
        java.util.List<Future<Integer>> fs = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) { final int k = i; fs.add(ex.submit(() -> ImmutableSet.copyOf(Lists.newArrayList(k, k + 1, k)).size())); }
        int t = 0; for (Future<Integer> f : fs) t += f.get(); ex.shutdown();
        System.out.println("threads " + t);
    }
}
