package weft.tools.leak;

import java.util.Arrays;

import weft.rt.JoinPointStaticPart;
import weft.rt.Parts;

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
     * The kind of execution join point id's frame. Small enough for C1 to
     * inline into Tracker.enter (under 35 bytes of bytecode), the first
     * time an id is seen apart.
     */
    static byte kind(int id) {
        byte[] k = kinds;
        if (id >= 0 && id < k.length) {
            byte v = k[id];
            if (v != 0) return v;
        }
        return first(id);
    }

    /**
     * Works out an id's kind from its static part, found by id (the advice
     * passes only the id): the first time an execution is entered.
     */
    private static byte first(int id) {
        byte[] k = kinds;
        JoinPointStaticPart jp = Parts.of(id);
        byte v = jp == null ? JDK : classify(jp.getDeclaringTypeName());
        if (id >= 0 && id < 1 << 24) {
            if (id >= k.length) kinds = k = Arrays.copyOf(k, Math.max(id + 1, 2 * k.length));
            k[id] = v;
        }
        return v;
    }

    /** The static part of execution id, null if none. */
    static JoinPointStaticPart part(int id) {
        return Parts.of(id);
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
