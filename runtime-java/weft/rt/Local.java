package weft.rt;

/**
 * One per-thread slot for advice, application mode: a ThreadLocal. In the
 * woven JDK it is a field of java.lang.Thread instead, so advice can keep
 * per-thread state (a profiler's calling-context stack, a cflow counter)
 * even while the thread's woven code is in the middle of changing its own
 * ThreadLocal map. The slot is not inherited by new threads.
 */
public final class Local {
    private Local() {}

    private static final ThreadLocal<Object> SLOT = new ThreadLocal<>();

    /** Returns the current thread's slot (null until set). */
    public static Object get() {
        return SLOT.get();
    }

    /** Sets the current thread's slot. */
    public static void set(Object value) {
        SLOT.set(value);
    }
}
