package weft.rt;

/**
 * The Bootstrap Inserted-code Bypass, JDK mode: a global flag that is clear
 * ("not ready") while the JVM bootstraps, so woven java.base code runs its
 * original bodies until the VM can run arbitrary code.
 *
 * <p>This class is added to java.base. It has no static initializer, so the
 * getstatic of {@link #ready} that woven code runs first, before anything
 * else (Thread.currentThread() included), initializes nothing new during
 * bootstrap. The patched java.lang.System.initPhase3 calls {@link #setReady}
 * as it returns: the system class loader is then set and the launcher is
 * about to load the main class.
 *
 * <p>Woven code reads {@link #ready} without synchronization and, only when
 * it still sees false, confirms with {@link #isReady} (FERRARI's
 * double-checked read): a stale false costs one more read, never a wrong
 * answer, and the common case costs one plain read. FERRARI confirms under
 * a lock; here the confirmation reads a volatile copy of the flag, which
 * the Java memory model makes just as current, because during bootstrap
 * every woven method call takes this path: a monitor there cost start-up
 * time for nothing.
 */
public final class BIB {
    private BIB() {}

    /** True once bootstrap is over. Default false: no clinit. */
    public static boolean ready;

    /** The flag as last set: a volatile read sees the current state. */
    private static volatile boolean current;

    /** Confirms the flag (JDK mode: never sets it). */
    public static boolean isReady() {
        return current;
    }

    /**
     * Marks the end of bootstrap; called by System.initPhase3. Not with
     * -Dweft.unadvised=true (weft's own JVMs, such as a runtime image's
     * class data sharing dump): then no advice runs at all. The property
     * is read with woven code still in bootstrap mode.
     */
    public static synchronized void setReady() {
        if (Boolean.getBoolean("weft.unadvised")) {
            return;
        }
        current = true;
        ready = true;
    }
}
