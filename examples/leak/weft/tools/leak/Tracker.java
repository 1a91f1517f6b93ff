package weft.tools.leak;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import weft.rt.Local;

/**
 * Advice of leak.weft: a calling context per thread (the executions, kept
 * by the execution advice), and per allocation a count in its context — the
 * innermost leak.depth frames, and further out to the program's nearest
 * frame (an allocation inside the JDK is named by the program's code that
 * caused it), hidden frames left out as stack traces leave them out
 * (Frames) — in the allocating thread's own counter, and, for the
 * allocations sampled, a weak reference that
 * counts the object live until the collector clears it. {@link Sampler}
 * turns the live counts into a history, sampled after each collection,
 * and {@link Report} ranks the contexts whose live population grows.
 *
 * <p>Nothing here keeps a program's object alive: the only references to
 * them are weak. Every method runs inside advice (the bypass flag set), so
 * the tracker's own allocations are not tracked and nothing recurses.
 *
 * <p>Settings (system property, else environment variable, else default):
 * leak.out / WEFT_LEAK_OUT, the output directory (weft-leak); leak.depth /
 * WEFT_LEAK_DEPTH, frames of context (4), and out to the program's nearest
 * one (at most MAX_FRAMES); leak.sample / WEFT_LEAK_SAMPLE,
 * track one allocation in N (0, the default: every one while the rate
 * allows, see Sampler); leak.window / WEFT_LEAK_WINDOW, the points of
 * history the growth test looks at (8, see Sampler); leak.rate / WEFT_LEAK_RATE, tracked objects per
 * second before the adaptive sampling halves the rate (500000); leak.period
 * / WEFT_LEAK_PERIOD, seconds between reports written while the program
 * runs (0: at exit only); leak.quiet / WEFT_LEAK_QUIET, no line on stderr
 * at exit saying where the report is. Report has the growth test's.
 */
public final class Tracker {
    private Tracker() {}

    static final int DEPTH = Integer.parseInt(setting("leak.depth", "WEFT_LEAK_DEPTH", "4"));
    static final int FIXED_INTERVAL = Integer.parseInt(setting("leak.sample", "WEFT_LEAK_SAMPLE", "0"));
    static final int WINDOW = Math.max(4, Integer.parseInt(setting("leak.window", "WEFT_LEAK_WINDOW", "8")));
    static final long RATE = Long.parseLong(setting("leak.rate", "WEFT_LEAK_RATE", "500000"));
    /** Weak references kept at most: about 1/16 of the heap at 64 bytes each. */
    static final int MAX_TRACKED = (int) Math.max(4096, Math.min(1 << 21, Runtime.getRuntime().maxMemory() / 16 / 64));
    /** Frames of a context at most, however far the program's nearest frame is. */
    static final int MAX_FRAMES = Math.max(DEPTH, 64);
    /**
     * Contexts kept at most, a thirty-second of the heap at about 256 bytes
     * each; past it, new contexts fold into their site alone (no frames),
     * and the report says so (Context.folded).
     */
    static final int MAX_CONTEXTS = (int) Math.max(1024, Math.min(1 << 22, Runtime.getRuntime().maxMemory() / 32 / 256));

    /** One in interval allocations is tracked; raised by the sampler when the rate is too high. */
    static volatile int interval = FIXED_INTERVAL > 0 ? FIXED_INTERVAL : 1;

    /** The sampler's sentinels' queue (a tracked object's reference is on none: Refs.reap counts its death). */
    static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    static final Refs REFS = new Refs(MAX_TRACKED);
    static final ConcurrentHashMap<Context, Context> CONTEXTS = new ConcurrentHashMap<>();
    static final AtomicInteger CONTEXT_COUNT = new AtomicInteger();
    static final AtomicLong UNTRACKED = new AtomicLong(); // sampled but not tracked: the table was full
    static final int[] NO_IDS = {};

    /** A tracked object's weak reference: its context, weight and size. */
    static final class Ref extends WeakReference<Object> {
        final Context context;
        final long weight, bytes;
        int slot;

        /**
         * On no queue: the reference handler's enqueueing under the queue's
         * lock, the sampler's taking each out and the table's lock it took
         * to count them were about 15 % of javac's run (perf); the scan
         * after each collection (Refs.reap) finds them cleared.
         */
        Ref(Object o, Context c, long weight, long bytes) {
            super(o);
            this.context = c;
            this.weight = weight;
            this.bytes = bytes;
        }
    }

    /**
     * A thread's context stack (join point ids: a reference stored at
     * every entry cost the collector's write barrier, whose slow path G1
     * takes for a stack and frames in different regions, 8 % of javac's
     * run under weft leak, perf), its counts by context (and a cache of
     * them), and its sampling countdown.
     */
    static final class State {
        int[] stack = new int[64];
        byte[] kinds = new byte[64]; // of stack's frames (Frames)
        int[] program = new int[64]; // by stack index: the innermost program frame's index at or below it, -1 if none
        int depth;
        final int[] frames = new int[MAX_FRAMES]; // a context being looked up
        final Context.Count[] cache = new Context.Count[4096]; // the thread's counts of its contexts, by hash
        final HashMap<Context, Context.Count> counts = new HashMap<>(); // all of them
        long countdown; // allocations until the next one tracked
        long weight = 1; // the next tracked one's weight: the interval its countdown was drawn with
        long random = System.nanoTime() | 1;
    }

    static {
        Sampler.start();
    }

    /** A setting: the system property, else the environment variable, else the default. */
    static String setting(String property, String env, String otherwise) {
        String v = System.getProperty(property);
        if (v == null) v = System.getenv(env);
        return v != null ? v : otherwise;
    }

    /** The thread's state; small enough for C1 to inline (under 35 bytes), its making apart. */
    private static State state() {
        Object s = Local.get();
        return s instanceof State ? (State) s : newState();
    }

    private static State newState() {
        State n = new State();
        Local.set(n);
        return n;
    }

    /** Enters execution join point id. */
    public static void enter(int id) {
        State s = state();
        int d = s.depth;
        if (d == s.stack.length) grow(s);
        byte kind = Frames.kind(id);
        s.stack[d] = id;
        s.kinds[d] = kind;
        s.program[d] = kind == Frames.PROGRAM ? d : d > 0 ? s.program[d - 1] : -1;
        s.depth = d + 1;
    }

    private static void grow(State s) {
        int n = 2 * s.stack.length;
        s.stack = Arrays.copyOf(s.stack, n);
        s.kinds = Arrays.copyOf(s.kinds, n);
        s.program = Arrays.copyOf(s.program, n);
    }

    /** Leaves the innermost execution (returning or throwing). */
    public static void exit() {
        State s = state();
        if (s.depth > 0) s.depth--; // else an exit whose entry ran before the tracker existed
    }

    /** After the construction of object o at site join point id. */
    public static void object(Object o, int id) {
        State s = state();
        Context.Count c = count(s, id);
        c.allocated++;
        if (--s.countdown > 0 || o == null) return;
        trackObject(s, c.context, o);
    }

    /** After the construction of array a at site join point id. */
    public static void array(Object a, int id) {
        State s = state();
        Context.Count c = count(s, id);
        c.allocated++;
        if (--s.countdown > 0 || a == null) return;
        track(a, c.context, sampled(s), Sizes.array(a));
    }

    private static void trackObject(State s, Context c, Object o) {
        long weight = sampled(s);
        long size = c.objectSize;
        if (size < 0) c.objectSize = size = Sizes.object(o.getClass());
        track(o, c, weight, size);
    }

    /**
     * The thread's count of the context of an allocation at site in s's
     * current stack: its innermost DEPTH frames, and on out to the
     * program's nearest frame if that is further (at most MAX_FRAMES),
     * hidden frames left out.
     */
    private static Context.Count count(State s, int id) {
        int depth = s.depth;
        int far = depth > 0 ? s.program[depth - 1] : -1;
        int[] f = s.frames;
        int k = 0;
        for (int i = depth - 1; i >= 0 && k < MAX_FRAMES; i--) {
            if (k >= DEPTH && (far < 0 || i < far)) break; // DEPTH frames, and the program's nearest taken
            if (s.kinds[i] != Frames.HIDDEN) f[k++] = s.stack[i];
        }
        int h = Context.hash(id, f, k);
        int slot = h & (s.cache.length - 1);
        Context.Count c = s.cache[slot];
        if (c != null && c.context.is(id, f, k)) return c;
        Context x = intern(id, f, k, h);
        c = s.counts.get(x);
        if (c == null) s.counts.put(x, c = x.count());
        s.cache[slot] = c;
        return c;
    }

    /**
     * Starts the countdown to the next tracked allocation and returns this
     * one's weight: the interval the countdown that chose it was drawn with
     * (its mean), not the interval in force now — the sampler may have
     * raised it since, and weighting by the new one overestimated (a
     * context counted more objects live than it had allocated). The
     * countdown is drawn uniformly from 1 .. 2*interval-1 (mean interval),
     * so that a loop allocating at several sites in a fixed order is not
     * always sampled at the same one.
     */
    private static long sampled(State s) {
        long weight = s.weight;
        int n = interval;
        if (n == 1) {
            s.countdown = 1;
        } else {
            long r = s.random;
            r ^= r << 13;
            r ^= r >>> 7;
            r ^= r << 17;
            s.random = r;
            s.countdown = 1 + Long.remainderUnsigned(r, 2L * n - 1);
        }
        s.weight = n;
        return weight;
    }

    private static void track(Object o, Context c, long weight, long size) {
        Ref r = new Ref(o, c, weight, weight * size);
        if (!REFS.add(r)) {
            r.clear(); // never in the table: it does not count
            UNTRACKED.incrementAndGet();
        }
    }

    private static Context intern(int site, int[] f, int k, int h) {
        int[] ids = NO_IDS;
        boolean full = CONTEXT_COUNT.get() >= MAX_CONTEXTS;
        if (!full) {
            ids = Arrays.copyOf(f, k);
        } else {
            h = Context.hash(site, f, 0);
        }
        Context probe = new Context(site, ids, h, Sampler.POINTS, Sampler.samples());
        Context c = CONTEXTS.putIfAbsent(probe, probe);
        if (c == null) {
            CONTEXT_COUNT.incrementAndGet();
            c = probe;
        }
        if (full && k > 0) c.folded = true; // its frames lost: the report says so
        return c;
    }

    /**
     * The strong references to the weak references themselves (a weak
     * reference that is collected is never enqueued): a table of at most
     * max slots with a free list, allocation-free once grown.
     */
    static final class Refs {
        private final int max;
        private Ref[] slots = new Ref[1024];
        private int[] free = new int[1024];
        private int nfree, used;
        private long added;
        /** The fill past which filling runs. */
        private int nextFill;
        /**
         * A weak reference to an object nothing else references, renewed at
         * each scan (reap): the next collection clears it, as it clears
         * the references of the tracked objects it collected. While it is
         * set, a scan would find nothing; a full table of live objects was
         * scanned, 2 million references, at every add 10 ms after the last
         * scan (javac tracking every allocation: the program's thread in
         * the scan most of the time).
         */
        private WeakReference<Object> canary = new WeakReference<>(null);
        /** When filling last ran (System.nanoTime). */
        private long lastFilling = System.nanoTime() - 10_000_000L;

        Refs(int max) {
            this.max = max;
            this.nextFill = max / 2;
        }

        synchronized boolean add(Ref r) {
            int i;
            if (nfree > 0) {
                i = free[--nfree];
            } else if (used < slots.length) {
                i = used++;
            } else if (slots.length < max) {
                int n = Math.min(max, 2 * slots.length);
                slots = Arrays.copyOf(slots, n);
                free = Arrays.copyOf(free, n);
                i = used++;
            } else {
                filling(); // full: a mark passed too
                if (nfree == 0) return false;
                i = free[--nfree];
            }
            slots[i] = r;
            r.slot = i;
            r.context.born(r.weight, r.bytes);
            added++;
            if (size() > nextFill) filling();
            return true;
        }

        /**
         * The table passed its next mark, or is full: first counts the
         * objects already collected whose deaths the sampler has not
         * counted yet, if a collection ran since the last scan
         * (on a busy machine the sampler may not run for long while the
         * program fills the table). If the table is still
         * more than half full, halves the share of allocations tracked:
         * the table must hold what the program allocates between two
         * collections. At most one scan per 10 ms: a full table of live
         * objects (a leak) would otherwise be scanned, and the share
         * halved, at every add (the share fell to 1 in 65,536).
         */
        private void filling() {
            long now = System.nanoTime();
            if (now - lastFilling < 10_000_000L) return;
            lastFilling = now;
            if (canary.get() == null) reap(); // else no collection since the last scan: nothing to find
            int size = size();
            if (size > max / 2 && FIXED_INTERVAL == 0 && interval < Sampler.MAX_INTERVAL) interval *= 2;
            nextFill = Math.min(max, Math.max(max / 2, size + max / 16));
        }

        /**
         * Counts dead every tracked object the collector has cleared (after
         * each collection, from the sampler, and when the table fills).
         * get() on a live reference only lends its object to this frame.
         */
        synchronized void reap() {
            canary = new WeakReference<>(new Object()); // before the scan: a collection during it clears it too
            for (int i = 0; i < used; i++) {
                Ref r = slots[i];
                if (r != null && r.get() == null) free(r);
            }
        }

        /** Counts r's object dead and frees its slot (the lock held). */
        private void free(Ref r) {
            r.context.died(r.weight, r.bytes);
            slots[r.slot] = null;
            free[nfree++] = r.slot;
        }

        /** Tracked objects not yet found collected (the lock held). */
        private int size() {
            return used - nfree;
        }

        // added is read without the lock: it only steers the sampling
        // rate, and a sampler taking the lock every 100 ms against
        // allocating threads that take it at every tracked object could
        // wait behind them for long.

        /** References added in all. */
        long added() {
            return added;
        }

        int max() {
            return max;
        }
    }
}
