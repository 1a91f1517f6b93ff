package weft.rt;

/**
 * The guard woven code calls at the entry of every woven method. It is the
 * single indirection between woven code and the bypass flags, so woven code
 * is identical whether the DIB lives in java.lang.Thread (JDK weaving) or in
 * a ThreadLocal (application weaving).
 */
public final class Weft {
    private Weft() {}

    /**
     * Reports whether the current thread must run the original, unwoven body:
     * while the JVM bootstraps (BIB, read first, before anything touches
     * Thread.currentThread()) or while the thread's bypass flag (DIB) is set.
     */
    public static boolean bypass() {
        if (!BIB.ready && !BIB.isReady()) {
            return true;
        }
        return DIB.get();
    }

    /**
     * The guard woven code calls at the entry of every woven method: null if
     * the current thread must run the original body (as {@link #bypass}
     * decides, BIB read first), else the current thread's bypass token. The
     * woven body keeps the token in a local and passes it to each advice
     * helper, which brackets the advice with {@link DIB#begin} and
     * {@link DIB#end}: one lookup of the thread's flag per woven method
     * entry, none per advice call.
     */
    public static Object enter() {
        if (!BIB.ready && !BIB.isReady()) {
            return null;
        }
        return DIB.token();
    }
}
