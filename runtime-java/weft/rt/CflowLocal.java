package weft.rt;

/**
 * The per-thread slot holding a thread's {@link Cflow} state, application
 * mode: a field of the thread's bypass cell ({@link DIB}), which the token
 * woven code passes is or leads to. In the woven JDK it is a field of java.lang.Thread
 * instead. A new thread's cell starts empty: the state is not inherited.
 */
public final class CflowLocal {
    private CflowLocal() {}

    /** Returns the cflow state of the thread whose bypass token this is (null until set). */
    public static Object get(Object token) {
        return DIB.cellOf(token).cflow;
    }

    /** Sets the cflow state of the thread whose bypass token this is. */
    public static void set(Object token, Object state) {
        DIB.cellOf(token).cflow = state;
    }
}
