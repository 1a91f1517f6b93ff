package weft.tools.leak;

import java.lang.ref.Reference;
import java.lang.ref.WeakReference;

/**
 * The tracker's daemon thread: after each collection it counts the deaths
 * the collector reports (the weak references it cleared, Tracker.Refs.reap)
 * and takes a sample of every context's live estimate, and, unless a
 * sampling interval was given, halves the share of allocations tracked
 * whenever they come faster than leak.rate per second. At exit a shutdown
 * hook asks for one more (full) collection, waits for its sample and
 * writes the report.
 *
 * <p>A collection is seen by a sentinel: a weak reference, on the
 * sentinels' queue, to a young object nothing else references. The next
 * collection clears it, as it clears the references of every object it
 * collected; once a sentinel is out of the queue, the sample counts those
 * (Tracker.Refs.reap) and is taken at once. The sentinel is renewed every 100 ms:
 * an object that survives one young collection (a collection while the
 * sentinel was being made) can be promoted, and then only a full
 * collection clears it — a program would get one sample, at exit.
 * Live counts are only sampled then: between two collections, an object
 * that died is not yet known dead, and every site would seem to grow.
 *
 * <p>The samples make a history of at most POINTS points, spaced by the
 * allocations between them, not by collections (History): the growth
 * test's window, the last Tracker.WINDOW points, spans about the last half of the
 * run's allocations or more, however often the heap collects and however
 * fast the program runs.
 */
final class Sampler implements Runnable {
    private Sampler() {}

    /** Largest interval the adaptive sampling goes to. */
    static final int MAX_INTERVAL = 1 << 20;
    static final long PERIOD_MS = (long) (1000 * Double.parseDouble(Tracker.setting("leak.period", "WEFT_LEAK_PERIOD", "0")));

    /** Samples taken so far, one per collection seen. */
    private static volatile int samples;
    /** A weak reference to a young object nothing else references: cleared by the next collection. */
    private static final class Sentinel extends WeakReference<Object> {
        Sentinel() {
            super(new Object(), Tracker.QUEUE);
        }
    }

    /** The current sentinel (only this thread reads it): dropped ones still count if enqueued. */
    private static Sentinel sentinel;

    /** Points of history kept: twice the growth test's window (History). */
    static final int POINTS = 2 * Tracker.WINDOW;
    /** The history's points, guarded by Report.class. */
    static final History HISTORY = new History(POINTS);

    /** Samples taken so far. */
    static int samples() {
        return samples;
    }

    /** Made inside advice: both threads inherit the bypass flag, so their work is not tracked. */
    static void start() {
        Thread t = new Thread(new Sampler(), "weft-leak-sampler");
        t.setDaemon(true);
        t.start();
        // An anonymous class, not a lambda: a run's first lambda spins its
        // class through method handles, interpreted.
        Runtime.getRuntime().addShutdownHook(new Thread("weft-leak-report") {
            @Override
            public void run() {
                atExit();
            }
        });
    }

    @Override
    public void run() {
        sentinel = new Sentinel();
        long added = 0, tick = System.nanoTime(), nextWrite = tick + PERIOD_MS * 1_000_000;
        for (;;) {
            try {
                if (drain(Tracker.QUEUE.remove(100))) sample();
                long now = System.nanoTime();
                if (now - tick >= 100_000_000L) {
                    long a = Tracker.REFS.added();
                    adapt((a - added) * 1_000_000_000L / (now - tick));
                    added = a;
                    tick = now;
                    sentinel = new Sentinel();
                }
                if (PERIOD_MS > 0 && now - nextWrite >= 0) {
                    Report.write();
                    nextWrite = now + PERIOD_MS * 1_000_000;
                }
            } catch (InterruptedException e) {
                return; // the JVM is ending
            } catch (Throwable e) {
                // A sampler that stopped would leave the table to fill and the
                // history empty, silently: say so, and go on.
                System.err.println("leak: sampler: " + e);
            }
        }
    }

    /**
     * Takes r and every sentinel already queued behind it out of the queue
     * (the only references on it); says whether there was one (a
     * collection happened).
     */
    private static boolean drain(Reference<?> r) {
        boolean collected = r != null;
        while (r != null) r = Tracker.QUEUE.poll();
        return collected;
    }

    /**
     * After a collection: counts every object it collected (the collector
     * cleared their references as it ran: Tracker.Refs.reap finds them),
     * records every context's live estimate in the history, and sets a new
     * sentinel. At once: the objects the program allocates from then on
     * count live until the next collection (waiting for the queue to be
     * quiet for 20 ms let a program that collects every round count
     * most of a round's garbage live at every sample).
     *
     * <p>A sample is a new point of the history only if the program
     * allocated enough since the last one (History); else it refines the
     * last point (its live counts replace that point's). The collections
     * of a quiet moment — a program ending, waiting between requests,
     * calling System.gc() — are one point of the program's history, not
     * several (counted as several, they would end the window with equal
     * counts, and a leak would seem to have stopped); and once the history
     * has filled, its points are as far apart in allocations as its older
     * ones, so that a heap
     * collecting often — a small one, or one whose old generation fills —
     * does not crowd the window into the last moments of the run, where
     * a leak's rise between points is smaller than the noise of sampling
     * (Rhino keeping 20,000 objects in -Xmx32m, 358 young collections:
     * its NativeObjects rose by about 35 tracked objects over the last 48,
     * give or take 10 at each).
     */
    private static void sample() {
        Tracker.REFS.reap();
        sentinel = new Sentinel();
        synchronized (Report.class) { // not while a report reads the histories
            long allocated = 0;
            for (Context x : Tracker.CONTEXTS.keySet()) allocated += x.allocated();
            int s = samples;
            int n = HISTORY.add(s, allocated);
            for (Context x : Tracker.CONTEXTS.keySet()) {
                if (HISTORY.thinned) HISTORY.thin(x.history);
                x.history[n] = x.live;
            }
            samples = s + 1;
        }
    }

    /**
     * Halves the share of allocations tracked if they come faster than
     * leak.rate per second (the table's fill halves it too: Tracker.Refs).
     */
    private static void adapt(long perSecond) {
        if (Tracker.FIXED_INTERVAL > 0 || Tracker.interval >= MAX_INTERVAL) return;
        if (perSecond > Tracker.RATE) Tracker.interval *= 2;
    }

    /**
     * The shutdown hook: a last, full collection (its sample counts only
     * what is reachable), waits up to 2 s for the sampler to take that
     * sample, then writes the report.
     */
    private static void atExit() {
        int before = samples;
        System.gc();
        try {
            for (int i = 0; i < 200 && samples == before; i++) Thread.sleep(10);
        } catch (InterruptedException e) {
            // write what there is
        }
        Report.write();
        if (!Boolean.parseBoolean(Tracker.setting("leak.quiet", "WEFT_LEAK_QUIET", "false"))) {
            System.err.println("leak: report in " + Report.dir().resolve("leak.txt"));
        }
    }
}
