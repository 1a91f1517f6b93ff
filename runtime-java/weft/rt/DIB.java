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
 *
 * <p>One thread at a time gets its token with no lookup: {@code clear}
 * holds a thread whose flag is clear, and {@link #token} compares the
 * current thread with it (a load and a compare, about the cost of a raw
 * static call's own work in fib(30)). A thread claims {@code clear} when
 * it finds its flag clear and nobody holds it; before it sets its own flag
 * it gives it up, so {@code clear == currentThread} implies a clear flag
 * (only a thread sets its own flag; a new thread inheriting a set flag is
 * not started yet, so it has never claimed). A thread that runs advice
 * with its flag set ({@link #begin}, {@link #set}) gives it up for good:
 * threads running non-leaf advice would otherwise write the shared field
 * twice per advice call. So in a program whose advice is all leaf (called
 * without the flag: weaver/leaf.go), the first thread to run woven code,
 * usually main, costs a compare per woven entry; the others, the lookup.
 */
public final class DIB {
    private DIB() {}

    /**
     * Whether sister helpers call leaf advice (advice whose code reaches
     * only its own class) without setting the flag. True here: on a stock
     * JDK such advice reaches no woven code, even through the exceptions
     * the JVM constructs for it; false in JDK mode, where those
     * constructors are woven.
     */
    public static final boolean leafDirect = true;

    /**
     * A thread whose flag is clear (see the class comment), or null. Read
     * without synchronization, written under the class's lock: only by the
     * thread it names, to claim it (from null) or to give it up (to null).
     * So a thread that reads itself here has not given it up since its
     * claim: every other write of the field is ordered after its release,
     * and its own earlier claim is overwritten by that release. Not
     * volatile: a volatile read in every woven constructor kept C2 from
     * scalar-replacing the objects they build (bench/testdata/Work.java's
     * alloc: 843 µs against 267 with a plain read).
     */
    private static Thread clear;

    private static synchronized void claim(Thread t) {
        if (clear == null) {
            clear = t;
        }
    }

    private static synchronized void release(Thread t) {
        if (clear == t) {
            clear = null;
        }
    }

    static final class Cell {
        final Thread owner;
        boolean on;
        boolean bypassed; // the thread has run with its flag set: it claims clear no more
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

    /** The cell of the thread whose token this is (the current thread's). */
    static Cell cellOf(Object token) {
        return token instanceof Cell ? (Cell) token : cell();
    }

    /**
     * Sets the flag of the current thread's cell c, giving up clear for good.
     * Once it is given up (bypassed), only the flag is written and the call
     * of release is off the path: non-leaf around advice proceeding once, in
     * bench/around.sh's loop, ran at x3.2 of unwoven writing bypassed and
     * testing clear each time, at x2.5 with this test.
     */
    private static void on(Cell c) {
        if (!c.bypassed) {
            c.bypassed = true;
            if (clear == c.owner) {
                release(c.owner);
            }
        }
        c.on = true;
    }

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
        Cell c = cell();
        if (on) {
            on(c);
        } else {
            c.on = false;
        }
    }

    /** Sets the current thread's flag and returns its previous value. */
    public static boolean getAndSetTrue() {
        Cell c = cell();
        boolean old = c.on;
        on(c);
        return old;
    }

    /**
     * Returns null if the current thread's flag is set, else a token for the
     * current thread to pass to {@link #begin} and {@link #end}: the thread
     * itself if it holds clear, else its cell, so that they need no lookup.
     */
    public static Object token() {
        Thread t = Thread.currentThread();
        if (t == clear) {
            return t;
        }
        Cell c = cell();
        if (c.on) {
            return null;
        }
        if (!c.bypassed && clear == null) {
            claim(t);
        }
        return c;
    }

    /**
     * Sets the flag of the thread whose token this is (the current thread,
     * whose flag was clear when it got the token and has been restored by
     * every begin/end pair since).
     */
    public static void begin(Object token) {
        on(cellOf(token));
    }

    /** Clears the flag {@link #begin} set: the advice call is over. */
    public static void end(Object token) {
        cellOf(token).on = false;
    }

    /** Reports whether token is the current thread's (see {@link #token}). */
    public static boolean owns(Object token) {
        Thread t = Thread.currentThread();
        return token == t || token instanceof Cell && ((Cell) token).owner == t;
    }

    /**
     * Reports whether token is the current thread's and its flag is clear
     * (proceed in around advice called without the flag: nothing to do).
     * A thread holding clear has a clear flag; one that gave it up since
     * it got its token looks its flag up.
     */
    public static boolean isClear(Object token) {
        Thread t = Thread.currentThread();
        if (token == t) {
            return clear == t || !cell().on;
        }
        return token instanceof Cell && ((Cell) token).owner == t && !((Cell) token).on;
    }

    /**
     * Sets the current thread's flag for a short bypass, such as the
     * initialization of leaf advice classes (weaver/leaf.go), after which
     * the thread may claim clear again: returns null if the flag was set
     * already (nothing to undo), else the token to pass to
     * {@link #exitInit}.
     */
    public static Object enterInit() {
        Cell c = cell();
        if (c.on) {
            return null;
        }
        if (clear == c.owner) {
            release(c.owner);
        }
        c.on = true;
        return c;
    }

    /** Ends {@link #enterInit}'s bypass (token: what it returned). */
    public static void exitInit(Object token) {
        if (token != null) {
            ((Cell) token).on = false;
        }
    }
}
