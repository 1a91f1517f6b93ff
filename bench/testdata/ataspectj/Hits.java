package bench.at;

/**
 * The advice of bench/ataspectj.sh's count.weft: the same work as the
 * @AspectJ aspect bench.at.Count's advice, in a static method.
 */
public final class Hits {
    private static long hits;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("count: " + hits + " hits")));
    }

    private Hits() {}

    public static void hit() {
        hits++;
    }
}
