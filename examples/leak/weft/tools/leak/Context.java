package weft.tools.leak;

import java.util.Arrays;

import weft.rt.JoinPointStaticPart;
import weft.rt.Parts;

/**
 * An allocation context: an allocation site (a {@code new} or array
 * construction join point) under the innermost few executions of the
 * thread that allocates. Its allocations are counted per thread, in a
 * {@link Count} each (a plain increment, no shared cache line written per
 * allocation), and summed when read; its other counters change only per
 * tracked object, under the lock of the table of references; its history
 * is written by the sampler only.
 */
final class Context {
    /**
     * The join point ids of the executions around the site, innermost
     * first: Tracker.DEPTH, and out to the program's nearest
     * (Tracker.count), hidden ones left out; with the site's, the key.
     */
    final int[] ids;
    final int siteId;
    final int hash;

    /** The threads' counts of the objects allocated here, every one (copied on write, under this). */
    private volatile Count[] counts = NO_COUNTS;
    volatile long tracked;   // of those, tracked by weak reference (not weighted)
    volatile long live;      // tracked objects not yet collected, each weighted by its sampling interval
    volatile long liveBytes; // their shallow sizes, weighted alike
    /** Shallow size of the site's objects, -1 until measured (arrays are measured one by one). */
    long objectSize = -1;
    /**
     * Set when allocations with calling frames were counted here, at their
     * site alone, because the table of contexts was full (Tracker.intern).
     */
    volatile boolean folded;

    /** Live estimates at the points of the history (Sampler), by point; written by the sampler only. */
    final long[] history;
    /** The number of the first sample taken after this context existed: points written before it are not its. */
    final int born;

    private static final Count[] NO_COUNTS = {};

    Context(int siteId, int[] ids, int hash, int points, int born) {
        this.siteId = siteId;
        this.ids = ids;
        this.hash = hash;
        this.history = new long[points];
        this.born = born;
    }

    /** The hash of site id under the executions ids[0..k), innermost first. */
    static int hash(int site, int[] ids, int k) {
        int h = site * 0x9E3779B9;
        for (int i = 0; i < k; i++) {
            h = (h ^ ids[i]) * 0x9E3779B9;
        }
        return h ^ (h >>> 16);
    }

    /** Whether this is site id under the executions ids[0..k), innermost first. */
    boolean is(int site, int[] ids, int k) {
        int[] own = this.ids;
        if (siteId != site || own.length != k) return false;
        for (int i = 0; i < k; i++) {
            if (own[i] != ids[i]) return false;
        }
        return true;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Context)) return false;
        Context c = (Context) o;
        return c.is(siteId, ids, ids.length);
    }

    /**
     * One thread's count of the allocations in a context, written by that
     * thread only. Others read it (sampler, report) without a lock: a
     * long's read is whole on the 64-bit JVMs weft weaves, and a count
     * read while its thread runs may lag by the allocations still in the
     * thread's registers; at exit the threads that allocated have stopped
     * or wait in the shutdown.
     */
    static final class Count {
        final Context context;
        long allocated;

        Count(Context context) {
            this.context = context;
        }
    }

    /** A new count of this context's allocations for the calling thread. */
    synchronized Count count() {
        Count c = new Count(this);
        Count[] a = Arrays.copyOf(counts, counts.length + 1);
        a[a.length - 1] = c;
        counts = a;
        return c;
    }

    /** Objects allocated here, every one: the threads' counts summed. */
    long allocated() {
        long n = 0;
        for (Count c : counts) n += c.allocated;
        return n;
    }

    // born and died are called under the lock of the table of references
    // (Tracker.Refs), which counts each tracked object's birth and death
    // once: plain updates, where the JDK's atomics would run its woven code.

    void born(long weight, long bytes) {
        tracked++;
        live += weight;
        liveBytes += bytes;
    }

    void died(long weight, long bytes) {
        live -= weight;
        liveBytes -= bytes;
    }

    /**
     * The executions around the site, innermost first (ids'), looked up
     * when read: a thread that misses its cache of counts makes a context
     * to look its count up with.
     */
    JoinPointStaticPart[] frames() {
        JoinPointStaticPart[] f = new JoinPointStaticPart[ids.length];
        for (int i = 0; i < ids.length; i++) f[i] = Frames.part(ids[i]);
        return f;
    }

    /**
     * The site's static part, found by id as the report is written (the
     * advice passes only the id), null if none.
     */
    JoinPointStaticPart site() {
        JoinPointStaticPart p = site;
        if (p == null) site = p = Parts.of(siteId); // a benign race: the same part
        return p;
    }

    private JoinPointStaticPart site; // site(), once found

    /** The frame of the site: "new T". */
    String siteFrame() {
        JoinPointStaticPart site = site();
        return "new " + (site == null ? "?" : site.getDeclaringTypeName());
    }

    /** The frame of an execution: "T.m". */
    static String frame(JoinPointStaticPart jp) {
        if (jp == null) return "?";
        return jp.getDeclaringTypeName() + "." + jp.getName();
    }

    /** The site's source location, "File.java:12", or "" if unknown. */
    String location() {
        JoinPointStaticPart site = site();
        String l = site == null ? null : site.getSourceLocation();
        return l == null ? "" : l;
    }
}
