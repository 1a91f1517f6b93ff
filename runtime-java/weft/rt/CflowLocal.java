package weft.rt;

/**
 * The per-thread slot holding a thread's {@link Cflow} state, application
 * mode: a ThreadLocal. In the woven JDK it is a field of java.lang.Thread
 * instead, which woven ThreadLocal code can never be in the middle of
 * changing. Not inherited by new threads.
 */
public final class CflowLocal {
    private CflowLocal() {}

    private static final ThreadLocal<Object> SLOT = new ThreadLocal<>();

    /** Returns the current thread's cflow state (null until set). */
    public static Object get() {
        return SLOT.get();
    }

    /** Sets the current thread's cflow state. */
    public static void set(Object state) {
        SLOT.set(state);
    }
}
