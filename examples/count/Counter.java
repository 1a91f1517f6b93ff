package count;

import weft.rt.JoinPointStaticPart;

/**
 * Advice of count.weft: counts hits per join point id in a fixed array
 * (ids beyond it are folded into the last slot) and prints the totals at
 * exit. It allocates nothing per hit and, like most profilers' counters,
 * increments without synchronization: concurrent hits of one join point
 * may be lost.
 */
public final class Counter {
    private static final int SIZE = 1 << 20;
    private static final long[] HITS = new long[SIZE];
    private static final String[] NAMES = new String[SIZE];

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
        if (NAMES[id] == null) NAMES[id] = jp.toString();
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
            if (NAMES[i] != null && System.getProperty("count.verbose") != null) {
                System.err.println("count: " + n + " " + NAMES[i]);
            }
        }
        System.err.println("count: " + total + " hits at " + shadows + " join points");
    }
}
