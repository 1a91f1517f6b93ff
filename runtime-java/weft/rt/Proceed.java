package weft.rt;

/**
 * The handle around advice receives (the context value {@code proceed}) on
 * the rest of its join point: the advice of lower precedence and the join
 * point itself. Call {@link #proceed()} zero, one or many times; each call
 * runs the rest once and returns its value, boxed ({@code null} for void
 * join points).
 *
 * <p>weft makes one subclass per woven class (its sister class), whose
 * instances hold the join point's values; an instance that advice does not
 * store is removed by the JIT's escape analysis once the advice is inlined.
 * While advice runs, the thread bypasses woven code (its DIB flag is set,
 * unless the advice cannot reach woven code: weaver/leaf.go); proceeding
 * clears the flag for the join point's run, so join points in the
 * proceeded code are advised, and restores it after.
 */
public abstract class Proceed {
    /**
     * The woven method's bypass token (DIB.token()) for the thread running
     * the advice. Not final: C2 (JDK 17) does not scalar-replace an object
     * stored into a closure after a final field's constructor barrier (the
     * join point's this or arguments), so a final token made the common
     * case allocate them. Another thread that sees it null (published
     * unsafely, like the join point's values) takes resume's path for
     * threads that do not own it, which is its path anyway.
     */
    private Object token;

    protected Proceed(Object token) {
        this.token = token;
    }

    /** Runs the rest of the join point with its original arguments. */
    public final Object proceed() throws Throwable {
        Object t = token;
        int was = resume(t);
        try {
            return run();
        } finally {
            suspend(t, was);
        }
    }

    /**
     * Runs the rest of the join point with new arguments: as many as the join
     * point has (thisJoinPoint.getArgs()), each converted as AspectJ converts
     * (a cast, or unboxing where null is 0 and false). Wrong counts throw
     * IllegalArgumentException, wrong types ClassCastException.
     */
    public final Object proceed(Object... args) throws Throwable {
        return proceedOn(false, null, args);
    }

    /**
     * Runs the rest of the join point on another object: a call's or field
     * access's target, or for a method execution the executing object, with
     * new arguments as {@link #proceed(Object...)}. A join point without a
     * target throws IllegalArgumentException.
     */
    public final Object proceedOn(Object target, Object... args) throws Throwable {
        return proceedOn(true, target, args);
    }

    private Object proceedOn(boolean newTarget, Object target, Object[] args) throws Throwable {
        if (args == null) {
            throw new IllegalArgumentException("proceed: null arguments array");
        }
        Object t = token;
        int was = resume(t);
        try {
            return run(newTarget, target, args);
        } finally {
            suspend(t, was);
        }
    }

    /*
     * The thread's flag while the join point runs: clear; after, as it was.
     * Clear already (leaf around advice, called without setting it:
     * weaver/leaf.go), nothing is written. Set, on the thread that got the
     * token (the advice's), through the token (no lookup); on another,
     * through the thread's flag. resume says which (CLEAR, OWNED or SET), so
     * that suspend needs no second look at the thread. run() is called once
     * in each proceed, so that the JIT inlines the join point once.
     */
    private static final int CLEAR = 0, SET = 1, OWNED = 2;

    private static int resume(Object t) {
        if (DIB.isClear(t)) {
            return CLEAR;
        }
        if (DIB.owns(t)) {
            DIB.end(t);
            return OWNED;
        }
        if (!DIB.get()) {
            return CLEAR;
        }
        DIB.set(false);
        return SET;
    }

    private static void suspend(Object t, int was) {
        if (was == OWNED) {
            DIB.begin(t);
        } else if (was == SET) {
            DIB.set(true);
        }
    }

    /** Runs the join point with its values (weft's sister classes implement it). */
    protected abstract Object run() throws Throwable;

    /** Runs the join point with new values. */
    protected abstract Object run(boolean newTarget, Object target, Object[] args) throws Throwable;

    /** Thrown by run for a wrong number of arguments. */
    public static IllegalArgumentException arity(int want, int got) {
        return new IllegalArgumentException("proceed: the join point takes " + want + " arguments, " + got + " given");
    }

    /** Thrown by run for a new target at a join point without one. */
    public static IllegalArgumentException noTarget() {
        return new IllegalArgumentException("proceedOn: the join point has no target");
    }
}
