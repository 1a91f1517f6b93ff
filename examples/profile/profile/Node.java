package profile;

import weft.rt.JoinPointStaticPart;

/**
 * A calling context: an execution join point under its parent's context,
 * or an allocation site in its context. Children are found by join point
 * id (unique per shadow, so executions and sites never collide) in an
 * open-addressing table: a context that exists costs a few array reads and
 * no allocation.
 */
final class Node {
    final int id;                 // the join point id; -1 for a thread's root and the folded node
    final JoinPointStaticPart jp; // its static part; null for the root and the folded node
    final boolean site;           // an allocation site, not an execution

    long calls;     // times this context was entered
    long wallNanos; // inclusive wall time, measured (uncompensated)
    long cpuNanos;  // inclusive thread CPU time, when enabled
    long objects;   // objects allocated at this site
    long arrays;    // arrays allocated at this site (all dimensions)
    long elements;  // array elements allocated at this site (all dimensions)

    private Node[] table = new Node[4];
    private int size;

    Node(int id, JoinPointStaticPart jp, boolean site) {
        this.id = id;
        this.jp = jp;
        this.site = site;
    }

    /** The child for join point id, or null. */
    Node find(int id) {
        Node[] t = table;
        int mask = t.length - 1;
        for (int i = mix(id) & mask; ; i = (i + 1) & mask) {
            Node n = t[i];
            if (n == null || n.id == id) return n;
        }
    }

    void add(Node c) {
        if (2 * (size + 1) > table.length) {
            Node[] t = new Node[table.length * 2];
            for (Node n : table) if (n != null) insert(t, n);
            table = t;
        }
        insert(table, c);
        size++;
    }

    private static void insert(Node[] t, Node c) {
        int mask = t.length - 1;
        int i = mix(c.id) & mask;
        while (t[i] != null) i = (i + 1) & mask;
        t[i] = c;
    }

    Node[] children() {
        Node[] out = new Node[size];
        int k = 0;
        for (Node n : table) if (n != null) out[k++] = n;
        return out;
    }

    private static int mix(int x) {
        x *= 0x9E3779B9;
        return x ^ (x >>> 16);
    }

    /** The frame name of this context in folded stacks. */
    String frame() {
        if (jp == null) return id == -1 ? "[folded]" : "?";
        if (site) return "new " + jp.getDeclaringTypeName();
        return jp.getDeclaringTypeName() + "." + jp.getName();
    }
}
