package weft.tools.count;

import weft.rt.JoinPointStaticPart;

/**
 * Advice of count.weft: counts hits per join point id in a fixed array
 * (ids beyond it are folded into the last slot) and prints the totals at
 * exit. It allocates nothing per hit and, like most profilers' counters,
 * increments without synchronization: concurrent hits of one join point
 * may be lost.
 *
 * <p>The array holds half a million counters (a whole JDK woven with
 * count.weft has about 192,000 join points); the descriptions hitNamed
 * keeps are made on its first call. Start-up pays for the memory the
 * class touches as it initializes: a million counters and as many names
 * cost a woven hello world 60 ms.
 */
public final class Counter {
    private static final int SIZE = 1 << 19;
    private static final long[] HITS = new long[SIZE];
    private static String[] names; // hitNamed's descriptions, from its first call

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Counter::report));
    }

    private Counter() {}

    /** Counts one hit of join point id. */
    public static void hit(int id) {
        HITS[id < SIZE ? id : SIZE - 1]++;
    }

    /** Counts one hit and remembers the join point's description. */
    public static void hitNamed(JoinPointStaticPart jp) {
        int id = jp.getId() < SIZE ? jp.getId() : SIZE - 1;
        String[] n = names;
        if (n == null) names = n = new String[SIZE];
        if (n[id] == null) n[id] = jp.toString();
        HITS[id]++;
    }

    static void report() {
        if (System.getProperty("count.quiet") != null) return;
        long total = 0;
        int shadows = 0;
        for (int i = 0; i < SIZE; i++) {
            long n = HITS[i];
            if (n == 0) continue;
            total += n;
            shadows++;
            if (names != null && names[i] != null && System.getProperty("count.verbose") != null) {
                System.err.println("count: " + n + " " + names[i]);
            }
        }
        System.err.println("count: " + total + " hits at " + shadows + " join points");
    }
}
