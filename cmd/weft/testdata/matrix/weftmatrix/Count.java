package weftmatrix;

import weft.rt.JoinPointStaticPart;

/**
 * Advice of the program matrix's aspect (cmd/weft matrix_test.go): counts
 * every execution and every allocation (constructor call, array) by join
 * point id, and the executions of probes (the programs' functions whose
 * counts the tests know) by description too. At exit it prints each probe's
 * count and the totals on stderr. Ids past the tables are counted apart
 * and reported: their counts are not exact then.
 */
public final class Count {
    private static final int SIZE = 1 << 21;
    private static final long[] EXEC = new long[SIZE], ALLOC = new long[SIZE];
    private static final JoinPointStaticPart[] PROBES = new JoinPointStaticPart[SIZE];
    private static long beyond;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Count::report));
    }

    private Count() {}

    /** Counts an execution. */
    public static void exec(int id) {
        if (id < SIZE) EXEC[id]++; else beyond++;
    }

    /** Counts an allocation: a constructor call or an array. */
    public static void alloc(int id) {
        if (id < SIZE) ALLOC[id]++; else beyond++;
    }

    /** Counts an execution of a probe, remembering its description. */
    public static void probe(JoinPointStaticPart jp) {
        int id = jp.getId();
        if (id >= SIZE) { beyond++; return; }
        if (EXEC[id]++ == 0) PROBES[id] = jp;
    }

    static void report() {
        long exec = 0, alloc = 0;
        int points = 0;
        java.util.List<String> probes = new java.util.ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            if (EXEC[i] != 0 || ALLOC[i] != 0) points++;
            exec += EXEC[i];
            alloc += ALLOC[i];
            if (PROBES[i] != null) probes.add("matrix: " + EXEC[i] + " " + PROBES[i]);
        }
        java.util.Collections.sort(probes);
        StringBuilder b = new StringBuilder();
        for (String s : probes) b.append(s).append('\n');
        b.append("matrix: ").append(exec).append(" executions, ").append(alloc).append(" allocations at ")
            .append(points).append(" join points, ").append(beyond).append(" beyond the table\n");
        System.err.print(b);
    }
}
