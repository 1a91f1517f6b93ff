package leak;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.List;

/**
 * The tracker's daemon thread: it counts the deaths the collector reports
 * (cleared weak references, from the reference queue), takes a sample of
 * every context's live estimate after each collection (seen as a change
 * of the collectors' counts, java.lang.management), and, unless a sampling
 * interval was given, halves the share of allocations tracked whenever
 * they come faster than leak.rate per second or fill the table further.
 * At exit a shutdown hook asks for one more (full) collection, samples and
 * writes the report.
 *
 * <p>Live counts are only sampled after a collection: between two, an
 * object that died is not yet known dead, and every site would seem to
 * grow.
 */
final class Sampler implements Runnable {
    private Sampler() {}

    /** Largest interval the adaptive sampling goes to. */
    static final int MAX_INTERVAL = 1 << 20;
    static final long PERIOD_MS = (long) (1000 * Double.parseDouble(Tracker.setting("leak.period", "WEFT_LEAK_PERIOD", "0")));

    private static volatile int samples;
    private static long collections; // the collectors' count at the last sample
    private static List<GarbageCollectorMXBean> collectors;
    /** Total live estimate and bytes at each sample (for the report), a ring of Tracker.WINDOW. */
    static final long[] LIVE = new long[Tracker.WINDOW], LIVE_BYTES = new long[Tracker.WINDOW];

    /** Samples taken so far. */
    static int samples() {
        return samples;
    }

    /** Made inside advice: both threads inherit the bypass flag, so their work is not tracked. */
    static void start() {
        Thread t = new Thread(new Sampler(), "weft-leak-sampler");
        t.setDaemon(true);
        t.start();
        Runtime.getRuntime().addShutdownHook(new Thread(Sampler::atExit, "weft-leak-report"));
    }

    @Override
    public void run() {
        synchronized (Sampler.class) {
            collectors = ManagementFactory.getGarbageCollectorMXBeans();
            collections = collections();
        }
        long added = 0, tick = System.nanoTime(), nextWrite = tick + PERIOD_MS * 1_000_000;
        try {
            for (;;) {
                Reference<?> r = Tracker.QUEUE.remove(100);
                if (r != null) died(r);
                drain();
                sampleIfCollected();
                long now = System.nanoTime();
                if (now - tick >= 100_000_000L) {
                    long a = Tracker.REFS.added();
                    adapt((a - added) * 1_000_000_000L / (now - tick));
                    added = a;
                    tick = now;
                }
                if (PERIOD_MS > 0 && now - nextWrite >= 0) {
                    Report.write();
                    nextWrite = now + PERIOD_MS * 1_000_000;
                }
            }
        } catch (InterruptedException e) {
            // the JVM is ending
        }
    }

    /** The table's fill past which the share tracked is halved once more. */
    private static int nextFill = Tracker.REFS.max() / 2;

    /**
     * Halves the share of allocations tracked if they come too fast, or
     * once each time the table passes half full, then half of what is left
     * (3/4, 7/8...): objects that stay live (a leak) keep their slots, and
     * a full table tracks nothing new.
     */
    private static void adapt(long perSecond) {
        if (Tracker.FIXED_INTERVAL > 0 || Tracker.interval >= MAX_INTERVAL) return;
        boolean filling = Tracker.REFS.size() > nextFill;
        if (filling) nextFill += (Tracker.REFS.max() - nextFill) / 2;
        if (filling || perSecond > Tracker.RATE) Tracker.interval *= 2;
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean b : collectors) n += Math.max(0, b.getCollectionCount());
        return n;
    }

    private static void died(Reference<?> r) {
        Tracker.Ref t = (Tracker.Ref) r;
        Tracker.REFS.remove(t);
        t.context.died(t.weight, t.bytes);
    }

    private static void drain() {
        for (Reference<?> r; (r = Tracker.QUEUE.poll()) != null; ) died(r);
    }

    /**
     * After a collection: lets the reference handler enqueue what the
     * collector cleared (until the queue is quiet for 20 ms, 300 ms at
     * most), then records every context's live estimate as sample n.
     */
    static synchronized boolean sampleIfCollected() throws InterruptedException {
        if (collectors == null) return false;
        long c = collections();
        if (c == collections) return false;
        collections = c;
        long end = System.nanoTime() + 300_000_000L;
        for (Reference<?> r; System.nanoTime() < end && (r = Tracker.QUEUE.remove(20)) != null; ) {
            died(r);
            drain();
        }
        int n = samples;
        long live = 0, bytes = 0;
        for (Context x : Tracker.CONTEXTS.keySet()) {
            long l = x.live;
            x.history[n % x.history.length] = l;
            live += l;
            bytes += x.liveBytes;
        }
        LIVE[n % LIVE.length] = live;
        LIVE_BYTES[n % LIVE.length] = bytes;
        samples = n + 1;
        return true;
    }

    /** The shutdown hook: a last collection and sample, then the report. */
    private static void atExit() {
        try {
            System.gc(); // a full collection: the last sample counts reachable objects only
            sampleIfCollected();
        } catch (InterruptedException e) {
            // write what there is
        }
        Report.write();
        if (!Boolean.parseBoolean(Tracker.setting("leak.quiet", "WEFT_LEAK_QUIET", "false"))) {
            System.err.println("leak: report in " + Report.dir().resolve("leak.txt"));
        }
    }
}
