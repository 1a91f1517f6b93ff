package weft.rt;

/**
 * The per-thread slot holding a thread's {@link Cflow} state, JDK mode: the
 * field {@code weft$cflow} that weft adds to java.lang.Thread (the bypass
 * token woven code passes is the Thread; see the application-mode
 * CflowLocal). It touches no ThreadLocal map and nothing woven. Not
 * inherited by new threads.
 */
public final class CflowLocal {
    private CflowLocal() {}

    /** Returns the cflow state of the thread whose bypass token this is (null until set). */
    public static Object get(Object token) {
        return ((Thread) token).weft$cflow;
    }

    /** Sets the cflow state of the thread whose bypass token this is. */
    public static void set(Object token, Object state) {
        ((Thread) token).weft$cflow = state;
    }
}
