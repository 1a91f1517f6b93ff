package weft.tools.profile;

import weft.rt.JoinPointStaticPart;

/**
 * A calling context: an execution join point under its parent's context,
 * or an allocation site in its context. Children are found by join point
 * id (unique per shadow, so executions and sites never collide): the first
 * four in the context itself, each id beside its child, the others in an
 * open-addressing table. A context that exists costs a few field reads
 * and no allocation; the profiler's hot path compares the four ids itself
 * and calls {@link #find} only when none is the one.
 *
 * <p>A Node holds only what entering a context reads and writes, in 64
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

    // A context's first four children, in the order they were made, in
    // the context itself, each id beside its child: a lookup that finds
    // one reads this object and the child, where one through a table read
    // the table's header and slot too, each a cache miss in a tree of a
    // million contexts (javac profiled: half the samples of entering were
    // at the table's two loads; in its tree, 88 % of lookups are of one of
    // a context's four most looked-up children). An empty slot's id is
    // NO_ID. The fifth child on go in the table. A child is never moved,
    // so that a thread reading another's tree (merging, writing) meets it
    // once.
    int i0 = NO_ID, i1 = NO_ID, i2 = NO_ID, i3 = NO_ID;
    Node k0, k1, k2, k3;

    /** The id of an empty inline slot: no join point's, nor the folded context's (-1) or a root's (-2). */
    static final int NO_ID = -3;

    /**
     * The table of a context with at most four children, shared: most
     * contexts are leaves, and a probe of it misses as a probe of an empty
     * table does.
     */
    private static final Node[] NONE = new Node[1];

    Node[] table = NONE; // children past the fourth, open addressing; a power of two, at most half full
    private int size;    // children, in line and in the table

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
        if (i0 == id) return k0;
        if (i1 == id) return k1;
        if (i2 == id) return k2;
        if (i3 == id) return k3;
        Node[] t = table;
        int mask = t.length - 1;
        for (int i = slot(id, t.length); ; i = (i + 1) & mask) {
            Node n = t[i];
            if (n == null || n.id == id) return n;
        }
    }

    /** Adds child c, whose id is none of this context's children's. */
    final void add(Node c) {
        // The child before its id: a lookup that matches the id finds it.
        switch (size) {
            case 0: k0 = c; i0 = c.id; break;
            case 1: k1 = c; i1 = c.id; break;
            case 2: k2 = c; i2 = c.id; break;
            case 3: k3 = c; i3 = c.id; break;
            default:
                if (table == NONE) {
                    table = new Node[8];
                } else if (2 * (size - 3) > table.length) {
                    Node[] t = new Node[table.length * 2];
                    for (Node n : table) if (n != null) insert(t, n);
                    table = t;
                }
                insert(table, c);
        }
        size++;
    }

    private static void insert(Node[] t, Node c) {
        int mask = t.length - 1;
        int i = slot(c.id, t.length);
        while (t[i] != null) i = (i + 1) & mask;
        t[i] = c;
    }

    /**
     * Child i of a walk over this context's children, or null: the inline
     * slots, then table t, read once by the walker, for (t = n.table, i =
     * 0; i < 4 + t.length; i++): a thread reading another's tree sees the
     * children made before (and maybe some made after), each once.
     */
    final Node kid(int i, Node[] t) {
        switch (i) {
            case 0: return k0;
            case 1: return k1;
            case 2: return k2;
            case 3: return k3;
            default: return t[i - 4];
        }
    }

    final Node[] children() {
        Node[] out = new Node[size];
        int k = 0;
        Node[] t = table;
        for (int i = 0; i < 4 + t.length && k < out.length; i++) {
            Node c = kid(i, t);
            if (c != null) out[k++] = c;
        }
        return k == out.length ? out : java.util.Arrays.copyOf(out, k);
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
