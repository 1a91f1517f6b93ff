package weft.rt;

/**
 * The Dynamic Inserted-code Bypass, JDK mode: a per-thread flag; while it is
 * set the thread runs original method bodies and no advice.
 *
 * <p>The flag is the field {@code weft$dib} that weft adds to
 * java.lang.Thread; the Thread constructor copies it from the creating
 * thread, so threads started inside advice are bypassed too. The static
 * methods are those of the application-mode DIB (a ThreadLocal there), so
 * woven code is the same in both modes. This source compiles only against
 * the patched Thread (weft builds it with --patch-module java.base=...).
 *
 * <p>Callers have read BIB first: during bootstrap currentThread() may be
 * null.
 */
public final class DIB {
    private DIB() {}

    /**
     * Whether sister helpers call leaf advice without setting the flag:
     * never in a woven JDK, where the exceptions the JVM constructs for
     * such advice, and the class loaders resolving it, run woven code.
     */
    public static final boolean leafDirect = false;

    /** Returns the current thread's flag. */
    public static boolean get() {
        return Thread.currentThread().weft$dib;
    }

    /** Sets the current thread's flag. */
    public static void set(boolean on) {
        Thread.currentThread().weft$dib = on;
    }

    /** Sets the current thread's flag and returns its previous value. */
    public static boolean getAndSetTrue() {
        Thread t = Thread.currentThread();
        boolean old = t.weft$dib;
        t.weft$dib = true;
        return old;
    }

    /**
     * Returns null if the current thread's flag is set, else a token for
     * {@link #begin} and {@link #end} (the application-mode API; here the
     * thread itself).
     */
    public static Object token() {
        Thread t = Thread.currentThread();
        return t.weft$dib ? null : t;
    }

    /** Sets the current thread's flag around an advice call. */
    public static void begin(Object token) {
        Thread.currentThread().weft$dib = true;
    }

    /** Clears the flag {@link #begin} set: the advice call is over. */
    public static void end(Object token) {
        Thread.currentThread().weft$dib = false;
    }

    /** Reports whether token is the current thread's (see {@link #token}). */
    public static boolean owns(Object token) {
        return token == Thread.currentThread();
    }

    /** Reports whether token is the current thread's and its flag is clear. */
    public static boolean isClear(Object token) {
        Thread t = Thread.currentThread();
        return token == t && !t.weft$dib;
    }

    /**
     * Sets the current thread's flag for a short bypass (the application
     * runtime's API): null if it was set already, else the token for
     * {@link #exitInit}.
     */
    public static Object enterInit() {
        Thread t = Thread.currentThread();
        if (t.weft$dib) {
            return null;
        }
        t.weft$dib = true;
        return t;
    }

    /** Ends {@link #enterInit}'s bypass. */
    public static void exitInit(Object token) {
        if (token != null) {
            ((Thread) token).weft$dib = false;
        }
    }
}
