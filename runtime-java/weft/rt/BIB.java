package weft.rt;

/**
 * The Bootstrap Inserted-code Bypass: a global flag that is clear ("not
 * ready") while the JVM bootstraps. Woven code reads {@link #ready} without
 * synchronization and, only when it still sees false, confirms under the lock
 * (double-checked, as in FERRARI), so the common case costs one plain read.
 *
 * <p>This is the application-mode implementation: application classes load
 * after bootstrap, so the first confirmation marks the JVM ready. The class
 * has no static initializer, so reading the field initializes nothing.
 */
public final class BIB {
    private BIB() {}

    /** True once the JVM can run arbitrary code. Default false: no clinit. */
    public static boolean ready;

    /** Confirms the flag under the lock; application mode: always ready. */
    public static synchronized boolean isReady() {
        ready = true;
        return true;
    }

    /** Marks the end of bootstrap (a no-op in application mode). */
    public static synchronized void setReady() {
        ready = true;
    }
}
