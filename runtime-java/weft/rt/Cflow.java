package weft.rt;

/**
 * The per-thread state of cflow(P) and cflowbelow(P) pointcuts. Woven code
 * at each shadow of P calls {@link #enter} (or {@link #push} when the cflow
 * binds values) before the join point and {@link #exit} (or {@link #pop}) on
 * every way out of it; advice guarded by the cflow tests {@link #in} and
 * reads bound values of the innermost entry with {@link #get}.
 *
 * <p>A cflow is named by a key the weaver derives from its text, so classes
 * woven separately (the JDK, the application, at load time) share its
 * state. A thread's state is a small open-addressing table from key to
 * depth (and, for cflows that bind values, a stack of entry frames), held
 * by {@link CflowLocal}: a field of java.lang.Thread in the woven JDK, a
 * field of the thread's bypass cell in application mode. Each method takes
 * the current thread's bypass token (what the woven method's guard got
 * from {@link DIB#token}: the Thread, or the cell), so finding the state
 * costs one field read. New threads start outside every cflow, as in
 * AspectJ. Nothing here calls woven code: only arrays, and the allocation
 * of a thread's table on its first entry.
 */
public final class Cflow {
    private Cflow() {}

    /** One thread's cflows: depth and frames by key. */
    static final class State {
        int[] keys = new int[16]; // 0: free
        int[] depths = new int[16];
        Object[][] frames = new Object[16][];
        int used;

        /** Returns the index of key, or -1. */
        int find(int key) {
            int[] ks = keys;
            int mask = ks.length - 1;
            for (int i = key & mask; ; i = (i + 1) & mask) {
                int k = ks[i];
                if (k == key) {
                    return i;
                }
                if (k == 0) {
                    return -1;
                }
            }
        }

        /** Returns the index of key, adding it if absent. */
        int slot(int key) {
            int i = find(key);
            if (i >= 0) {
                return i;
            }
            if (2 * (used + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            for (i = key & mask; keys[i] != 0; i = (i + 1) & mask) {
            }
            keys[i] = key;
            used++;
            return i;
        }

        private void grow() {
            int[] ks = keys, ds = depths;
            Object[][] fs = frames;
            int n = ks.length * 2;
            keys = new int[n];
            depths = new int[n];
            frames = new Object[n][];
            int mask = n - 1;
            for (int j = 0; j < ks.length; j++) {
                if (ks[j] == 0) {
                    continue;
                }
                int i = ks[j] & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = ks[j];
                depths[i] = ds[j];
                frames[i] = fs[j];
            }
        }
    }

    private static State state(Object token) {
        Object s = CflowLocal.get(token);
        if (s == null) {
            s = new State();
            CflowLocal.set(token, s);
        }
        return (State) s;
    }

    /** Enters the cflow key (a shadow of its pointcut begins). */
    public static void enter(Object token, int key) {
        State s = state(token);
        int i = s.slot(key); // first: slot may replace the arrays
        s.depths[i]++;
    }

    /** Leaves the cflow key (the shadow's join point is over). */
    public static void exit(Object token, int key) {
        Object o = CflowLocal.get(token);
        if (o == null) {
            return;
        }
        State s = (State) o;
        int i = s.find(key);
        if (i >= 0 && s.depths[i] > 0) {
            s.depths[i]--;
        }
    }

    /** Reports whether the current thread is in the control flow of key. */
    public static boolean in(Object token, int key) {
        Object o = CflowLocal.get(token);
        if (o == null) {
            return false;
        }
        State s = (State) o;
        int i = s.find(key);
        return i >= 0 && s.depths[i] > 0;
    }

    /** Enters the cflow key with the values it binds there. */
    public static void push(Object token, int key, Object[] frame) {
        State s = state(token);
        int i = s.slot(key);
        int d = s.depths[i];
        Object[] st = s.frames[i];
        if (st == null) {
            st = s.frames[i] = new Object[8];
        } else if (d == st.length) {
            Object[] bigger = new Object[2 * d];
            System.arraycopy(st, 0, bigger, 0, d);
            st = s.frames[i] = bigger;
        }
        st[d] = frame;
        s.depths[i] = d + 1;
    }

    /** Leaves the cflow key entered by {@link #push}. */
    public static void pop(Object token, int key) {
        Object o = CflowLocal.get(token);
        if (o == null) {
            return;
        }
        State s = (State) o;
        int i = s.find(key);
        if (i < 0 || s.depths[i] == 0) {
            return;
        }
        int d = s.depths[i] - 1;
        s.frames[i][d] = null;
        s.depths[i] = d;
    }

    /**
     * Returns value k bound by the innermost entry of the cflow key (as
     * AspectJ, the most recent one), or null outside it.
     */
    public static Object get(Object token, int key, int k) {
        Object o = CflowLocal.get(token);
        if (o == null) {
            return null;
        }
        State s = (State) o;
        int i = s.find(key);
        if (i < 0 || s.depths[i] == 0) {
            return null;
        }
        return ((Object[]) s.frames[i][s.depths[i] - 1])[k];
    }
}
