package weft.tools.leak;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

import weft.rt.JoinPointStaticPart;

/**
 * An allocation context: an allocation site (a {@code new} or array
 * construction join point) under the innermost few executions of the
 * thread that allocates. Its counters are shared by every thread that
 * allocates in it; its history is written by the sampler only.
 */
final class Context {
    final JoinPointStaticPart site;
    /**
     * The executions around the site, innermost first: Tracker.DEPTH, and
     * out to the program's nearest (Tracker.context), hidden ones left out.
     */
    final JoinPointStaticPart[] frames;
    final int hash;

    volatile long allocated; // objects allocated here, every one
    volatile long tracked;   // of those, tracked by weak reference (not weighted)
    volatile long live;      // tracked objects not yet collected, each weighted by its sampling interval
    volatile long liveBytes; // their shallow sizes, weighted alike
    /** Shallow size of the site's objects, -1 until measured (arrays are measured one by one). */
    long objectSize = -1;

    /** Live estimates at the last Tracker.WINDOW samples, a ring indexed by sample number. */
    final long[] history;
    /** The number of the first sample taken after this context existed. */
    final int born;

    private static final AtomicLongFieldUpdater<Context> ALLOCATED = AtomicLongFieldUpdater.newUpdater(Context.class, "allocated");
    private static final AtomicLongFieldUpdater<Context> TRACKED = AtomicLongFieldUpdater.newUpdater(Context.class, "tracked");
    private static final AtomicLongFieldUpdater<Context> LIVE = AtomicLongFieldUpdater.newUpdater(Context.class, "live");
    private static final AtomicLongFieldUpdater<Context> LIVE_BYTES = AtomicLongFieldUpdater.newUpdater(Context.class, "liveBytes");

    Context(JoinPointStaticPart site, JoinPointStaticPart[] frames, int hash, int window, int born) {
        this.site = site;
        this.frames = frames;
        this.hash = hash;
        this.history = new long[window];
        this.born = born;
    }

    /** The hash of a site under frames[0..k), innermost first. */
    static int hash(JoinPointStaticPart site, JoinPointStaticPart[] frames, int k) {
        int h = site.getId() * 0x9E3779B9;
        for (int i = 0; i < k; i++) {
            h = (h ^ frames[i].getId()) * 0x9E3779B9;
        }
        return h ^ (h >>> 16);
    }

    /** Whether this is site under frames[0..k), innermost first. */
    boolean is(JoinPointStaticPart site, JoinPointStaticPart[] frames, int k) {
        if (this.site != site || this.frames.length != k) return false;
        for (int i = 0; i < k; i++) {
            if (this.frames[i] != frames[i]) return false;
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
        if (c.site.getId() != site.getId() || c.frames.length != frames.length) return false;
        for (int i = 0; i < frames.length; i++) {
            if (c.frames[i].getId() != frames[i].getId()) return false;
        }
        return true;
    }

    void allocated() { ALLOCATED.incrementAndGet(this); }

    void born(long weight, long bytes) {
        TRACKED.incrementAndGet(this);
        LIVE.addAndGet(this, weight);
        LIVE_BYTES.addAndGet(this, bytes);
    }

    void died(long weight, long bytes) {
        LIVE.addAndGet(this, -weight);
        LIVE_BYTES.addAndGet(this, -bytes);
    }

    /** The live estimate at sample n (0 before the context existed). */
    long at(int n) {
        return n < born ? 0 : history[n % history.length];
    }

    /** The frame of the site: "new T". */
    String siteFrame() {
        return "new " + site.getDeclaringTypeName();
    }

    /** The frame of an execution: "T.m". */
    static String frame(JoinPointStaticPart jp) {
        return jp.getDeclaringTypeName() + "." + jp.getName();
    }

    /** The site's source location, "File.java:12", or "" if unknown. */
    String location() {
        String l = site.getSourceLocation();
        return l == null ? "" : l;
    }
}
