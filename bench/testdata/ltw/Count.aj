package bench;

/** AspectJ's twin of bench/testdata/ltw/count.weft: counts the executions of the generated classes' methods. */
public aspect Count {
    static long hits;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("count: " + hits + " hits")));
    }

    before(): execution(* p..*.*(..)) {
        hits++;
    }
}
