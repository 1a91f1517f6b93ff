package weft.rt;

/**
 * The Dynamic Inserted-code Bypass: a per-thread flag; while it is set the
 * thread runs original method bodies and no advice.
 *
 * <p>This is the application-mode implementation, where java.lang.Thread
 * cannot carry the flag: a ThreadLocal holds a mutable cell per thread. A
 * new thread inherits its creator's flag. The JDK-mode implementation keeps
 * the same static methods over a field of java.lang.Thread.
 */
public final class DIB {
    private DIB() {}

    static final class Cell {
        boolean on;
    }

    private static final InheritableThreadLocal<Cell> CELL = new InheritableThreadLocal<Cell>() {
        @Override
        protected Cell initialValue() {
            return new Cell();
        }

        @Override
        protected Cell childValue(Cell parent) {
            Cell c = new Cell();
            c.on = parent.on;
            return c;
        }
    };

    /** Returns the current thread's flag. */
    public static boolean get() {
        return CELL.get().on;
    }

    /** Sets the current thread's flag. */
    public static void set(boolean on) {
        CELL.get().on = on;
    }

    /** Sets the current thread's flag and returns its previous value. */
    public static boolean getAndSetTrue() {
        Cell c = CELL.get();
        boolean old = c.on;
        c.on = true;
        return old;
    }
}
