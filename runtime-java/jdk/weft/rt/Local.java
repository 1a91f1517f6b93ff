package weft.rt;

/**
 * One per-thread slot for advice, JDK mode: the field {@code weft$local}
 * that weft adds to java.lang.Thread (see the application-mode Local). It
 * touches no ThreadLocal map, so advice may use it at any point of woven
 * code, ThreadLocal's own included. Not inherited by new threads.
 */
public final class Local {
    private Local() {}

    /** Returns the current thread's slot (null until set). */
    public static Object get() {
        return Thread.currentThread().weft$local;
    }

    /** Sets the current thread's slot. */
    public static void set(Object value) {
        Thread.currentThread().weft$local = value;
    }
}
