package weft.tools.profile;

import weft.rt.JoinPointStaticPart;

/**
 * A calling context: an execution join point under its parent's context,
 * or an allocation site in its context. Children are found by join point
 * id (unique per shadow, so executions and sites never collide) in an
 * open-addressing table: a context that exists costs a few array reads and
 * no allocation. The profiler's hot path probes the table's first slot
 * itself ({@link #slot}) and calls {@link #child} only when that misses.
 */
class Node {
    final int id;                 // the join point id; -1 for the folded node, -2 for a root
    final JoinPointStaticPart jp; // its static part; null for a root and the folded node
    final boolean site;           // an allocation site, not an execution

    long calls;     // times this context was entered
    long wallNanos; // inclusive wall time, measured (uncompensated)
    long cpuNanos;  // inclusive thread CPU time, when enabled
    long waitNanos; // exclusive: time in the blocking calls of this context's own code (profile.weft's waiting())
    long objects;   // objects allocated at this site
    long arrays;    // arrays allocated at this site (all dimensions)
    long elements;  // array elements allocated at this site (all dimensions)

    /**
     * The table of a context without children, shared: most contexts are
     * leaves, and a probe of it misses as a probe of an empty table does.
     */
    private static final Node[] NONE = new Node[1];

    Node[] table = NONE; // children, open addressing; a power of two, at most half full
    private int size;

    Node(int id, JoinPointStaticPart jp, boolean site) {
        this.id = id;
        this.jp = jp;
        this.site = site;
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

    /** The frame name of this context in folded stacks. */
    final String frame() {
        if (jp == null) return id == -1 ? "[folded]" : "?";
        if (site) return "new " + jp.getDeclaringTypeName();
        return jp.getDeclaringTypeName() + "." + jp.getName();
    }
}
