package weft.tools.profile;

import weft.rt.JoinPointStaticPart;

/**
 * A calling context: an execution join point under its parent's context,
 * or an allocation site in its context. Children are found by join point
 * id (unique per shadow, so executions and sites never collide) in an
 * open-addressing table: a context that exists costs a few array reads and
 * no allocation. The profiler's hot path probes the table's first slot
 * itself ({@link #slot}) and calls {@link #find} only when that misses.
 *
 * <p>A Node holds only what entering a context reads and writes, in 32
 * bytes: an execution's context, counting calls only, is nothing more, so
 * that more of a tree of a million contexts stays in the processor's
 * caches (entering is a cache miss on the child most of the time; with 80
 * bytes more per context, javac's profiled thread took a third more
 * time). Its static part is the profiler's, by id (Profiler.part), and
 * its sampled time the sampler's (Profiler.SAMPLED_TIMES); allocation
 * sites, the [folded] context, roots and, when every execution is timed,
 * every context are {@link Full}, with the other metrics.
 */
class Node {
    final int id; // the join point id; -1 for the folded node, -2 for a root
    long calls;   // times this context was entered

    /**
     * The table of a context without children, shared: most contexts are
     * leaves, and a probe of it misses as a probe of an empty table does.
     */
    private static final Node[] NONE = new Node[1];

    Node[] table = NONE; // children, open addressing; a power of two, at most half full
    private int size;

    Node(int id) {
        this.id = id;
    }

    /** The first slot where child id may be in a table of length n. */
    static int slot(int id, int n) {
        int x = id * 0x9E3779B9;
        return (x ^ (x >>> 16)) & (n - 1);
    }

    /** The child for join point id, or null. */
    final Node find(int id) {
        Node[] t = table;
        int mask = t.length - 1;
        for (int i = slot(id, t.length); ; i = (i + 1) & mask) {
            Node n = t[i];
            if (n == null || n.id == id) return n;
        }
    }

    final void add(Node c) {
        if (table == NONE) {
            table = new Node[4];
        } else if (2 * (size + 1) > table.length) {
            Node[] t = new Node[table.length * 2];
            for (Node n : table) if (n != null) insert(t, n);
            table = t;
        }
        insert(table, c);
        size++;
    }

    private static void insert(Node[] t, Node c) {
        int mask = t.length - 1;
        int i = slot(c.id, t.length);
        while (t[i] != null) i = (i + 1) & mask;
        t[i] = c;
    }

    final Node[] children() {
        Node[] out = new Node[size];
        int k = 0;
        for (Node n : table) if (n != null) out[k++] = n;
        return out;
    }

    /** Whether this is an allocation site's context. */
    final boolean site() {
        return this instanceof Full && ((Full) this).site;
    }

    /** The frame name of this context in folded stacks, jp its static part. */
    final String frame(JoinPointStaticPart jp) {
        if (jp == null) return id == -1 ? "[folded]" : "?";
        if (site()) return "new " + jp.getDeclaringTypeName();
        return jp.getDeclaringTypeName() + "." + jp.getName();
    }
}
