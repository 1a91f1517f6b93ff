package weft.rt;

/**
 * The Dynamic Inserted-code Bypass: a per-thread flag; while it is set the
 * thread runs original method bodies and no advice.
 *
 * <p>This is the application-mode implementation, where java.lang.Thread
 * cannot carry the flag: each thread's flag lives in a {@link Cell} held by
 * an InheritableThreadLocal (a new thread inherits its creator's flag).
 * Woven code reads the flag at every woven method entry, so a ThreadLocal
 * lookup there would dominate the cost of cheap advice: a small table
 * indexed by thread id caches each thread's cell, and a hit costs two loads
 * and a compare. The table is read and written without synchronization:
 * only the owning thread uses its cell, and {@code Cell.owner} is final, so
 * a thread never takes another thread's cell for its own. The JDK-mode
 * implementation keeps the same static methods over a field of
 * java.lang.Thread.
 */
public final class DIB {
    private DIB() {}

    static final class Cell {
        final Thread owner;
        boolean on;
        Object cflow; // the thread's Cflow state (CflowLocal)

        Cell(Thread owner, boolean on) {
            this.owner = owner;
            this.on = on;
        }
    }

    private static final InheritableThreadLocal<Cell> CELL = new InheritableThreadLocal<Cell>() {
        @Override
        protected Cell initialValue() {
            return new Cell(Thread.currentThread(), false);
        }

        @Override
        protected Cell childValue(Cell parent) {
            // Runs in the creating thread; the child's cell is made on its
            // first lookup (initialValue) unless the parent bypasses.
            return parent.on ? new Cell(null, true) : null;
        }

        @Override
        public Cell get() {
            Cell c = super.get();
            if (c == null || c.owner != Thread.currentThread()) {
                c = new Cell(Thread.currentThread(), c != null && c.on);
                set(c);
            }
            return c;
        }
    };

    /** Cached cells by thread id modulo the table size (a power of two). */
    private static final Cell[] CACHE = new Cell[256];

    private static Cell cell() {
        Thread t = Thread.currentThread();
        int i = (int) t.getId() & (CACHE.length - 1);
        Cell c = CACHE[i];
        if (c != null && c.owner == t) {
            return c;
        }
        c = CELL.get();
        CACHE[i] = c;
        return c;
    }

    /** Returns the current thread's flag. */
    public static boolean get() {
        return cell().on;
    }

    /** Sets the current thread's flag. */
    public static void set(boolean on) {
        cell().on = on;
    }

    /** Sets the current thread's flag and returns its previous value. */
    public static boolean getAndSetTrue() {
        Cell c = cell();
        boolean old = c.on;
        c.on = true;
        return old;
    }

    /**
     * Returns null if the current thread's flag is set, else a token for the
     * current thread to pass to {@link #begin} and {@link #end} (here its
     * cell, so that they need no lookup).
     */
    public static Object token() {
        Cell c = cell();
        return c.on ? null : c;
    }

    /**
     * Sets the flag of the thread whose token this is (the current thread,
     * whose flag was clear when it got the token and has been restored by
     * every begin/end pair since).
     */
    public static void begin(Object token) {
        ((Cell) token).on = true;
    }

    /** Clears the flag {@link #begin} set: the advice call is over. */
    public static void end(Object token) {
        ((Cell) token).on = false;
    }

    /** Reports whether token is the current thread's (see {@link #token}). */
    public static boolean owns(Object token) {
        return token instanceof Cell && ((Cell) token).owner == Thread.currentThread();
    }
}
