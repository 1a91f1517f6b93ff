package weft.tools.leak;

import java.util.Arrays;

import weft.rt.JoinPointStaticPart;

/**
 * What an execution's frame is to a context: the JDK's, the program's, or
 * hidden (a lambda form or a lambda's proxy: frames the JVM leaves out of
 * stack traces, left out of contexts too). A context extends out to the
 * program's nearest frame (Tracker.context), so that an allocation inside
 * the JDK names the program's code that caused it. Kinds are kept by join
 * point id, worked out from the declaring type's name once.
 */
final class Frames {
    private Frames() {}

    static final byte JDK = 1, PROGRAM = 2, HIDDEN = 3;

    /** The packages of the JDK's modules (java.base's are the first five). */
    private static final String[] JDK_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun.",
        "org.w3c.", "org.xml.", "org.ietf.", "org.jcp.", "netscape."};

    /**
     * By join point id: its kind, 0 until worked out. Grown by copying; a
     * kind written into an array another thread has just replaced is lost
     * and worked out again.
     */
    private static volatile byte[] kinds = new byte[1 << 16];

    /**
     * The static parts of the executions entered, by join point id (the
     * stack keeps ids only: a reference stored at every entry cost the
     * collector's write barrier), for the report: an open-addressed table
     * under the class's lock, written once per id (a table indexed by id,
     * 4 bytes for every join point woven, took a megabyte or two of a
     * small heap, whose collections then came more often).
     */
    private static int[] partIds = new int[1024];
    private static JoinPointStaticPart[] parts = new JoinPointStaticPart[1024];
    private static int partCount;

    /**
     * The kind of execution jp's frame, join point id; remembers jp by id
     * (part). Small enough for C1 to inline into Tracker.enter (under 35
     * bytes of bytecode), the first time an id is seen apart.
     */
    static byte kind(int id, JoinPointStaticPart jp) {
        byte[] k = kinds;
        if (id >= 0 && id < k.length) {
            byte v = k[id];
            if (v != 0) return v;
        }
        return first(id, jp);
    }

    private static byte first(int id, JoinPointStaticPart jp) {
        byte[] k = kinds;
        byte v = classify(jp.getDeclaringTypeName());
        remember(id, jp);
        if (id >= 0 && id < 1 << 24) {
            if (id >= k.length) kinds = k = Arrays.copyOf(k, Math.max(id + 1, 2 * k.length));
            k[id] = v;
        }
        return v;
    }

    private static synchronized void remember(int id, JoinPointStaticPart jp) {
        int i = slot(partIds, parts, id);
        if (parts[i] != null) return;
        partIds[i] = id;
        parts[i] = jp;
        if (++partCount > parts.length / 2) {
            int[] ids = partIds;
            JoinPointStaticPart[] ps = parts;
            partIds = new int[2 * ids.length];
            parts = new JoinPointStaticPart[2 * ps.length];
            for (int j = 0; j < ps.length; j++) {
                if (ps[j] != null) {
                    int n = slot(partIds, parts, ids[j]);
                    partIds[n] = ids[j];
                    parts[n] = ps[j];
                }
            }
        }
    }

    /** Where id is in the table, or the empty slot where it goes. */
    private static int slot(int[] ids, JoinPointStaticPart[] ps, int id) {
        int mask = ids.length - 1;
        int h = id * 0x9E3779B9;
        int i = (h ^ h >>> 16) & mask;
        while (ps[i] != null && ids[i] != id) i = (i + 1) & mask;
        return i;
    }

    /** The static part of execution id, entered before (kind). */
    static synchronized JoinPointStaticPart part(int id) {
        return parts[slot(partIds, parts, id)];
    }

    /** The kind of a frame of type (a binary name). */
    static byte classify(String type) {
        if (type.contains("$$Lambda") || type.startsWith("java.lang.invoke.LambdaForm$")
                || type.startsWith("java.lang.invoke.") && type.endsWith("$Holder")) {
            return HIDDEN;
        }
        for (String p : JDK_PACKAGES) {
            if (type.startsWith(p)) return JDK;
        }
        return PROGRAM;
    }
}
