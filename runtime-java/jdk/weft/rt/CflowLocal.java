package weft.rt;

/**
 * The per-thread slot holding a thread's {@link Cflow} state, JDK mode: the
 * field {@code weft$cflow} that weft adds to java.lang.Thread (see the
 * application-mode CflowLocal). It touches no ThreadLocal map and nothing
 * woven. Not inherited by new threads.
 */
public final class CflowLocal {
    private CflowLocal() {}

    /** Returns the current thread's cflow state (null until set). */
    public static Object get() {
        return Thread.currentThread().weft$cflow;
    }

    /** Sets the current thread's cflow state. */
    public static void set(Object state) {
        Thread.currentThread().weft$cflow = state;
    }
}
