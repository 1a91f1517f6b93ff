package weft.tools.leak;

/**
 * The growth test on one context's live counts at the window's samples,
 * oldest first: pure arithmetic, so that it is tested alone.
 *
 * <p>The counts rise steadily when Kendall's tau-b between sample order
 * and count is at least the threshold. Tau-b, not tau-a, because equal
 * counts are common and say nothing: a leak's count is flat across the
 * samples of a quiet moment (the program ending, idle between requests).
 * Tau-a counts those pairs as zero over all pairs: 8 counts rising over
 * the first 5 and equal over the last 4 score 0.79, under the threshold.
 * Tau-b leaves the tied pairs out of that axis's measure: 0.89. A single
 * step up (a cache filled once) still scores at most 0.76, wherever it
 * falls.
 */
final class Trend {
    private Trend() {}

    /**
     * Tracked objects a rise must rest on. A live count is tracked objects
     * times the sampling interval, so a rise of one or two tracked objects
     * is within sampling's noise (a rise of k tracked objects is off by
     * about √k): Rhino keeping nothing showed a SoftReference context at
     * 32 32 32 32 48 64 64 64, two objects tracked 1 in 16, as growing.
     */
    static final int RISE_TRACKED = 4;

    /** The least rise that counts: minGrowth objects and RISE_TRACKED tracked ones at interval. */
    static long minRise(long minGrowth, int interval) {
        return Math.max(minGrowth, (long) RISE_TRACKED * interval);
    }

    /**
     * Kendall's tau-b of counts v against their order: (concordant −
     * discordant pairs) / √(all pairs × pairs not tied in v); 0 when every
     * count is equal or there are fewer than two.
     */
    static double tau(long[] v) {
        long s = 0, pairs = 0, untied = 0;
        for (int i = 0; i < v.length; i++) {
            for (int j = i + 1; j < v.length; j++) {
                int sign = Long.signum(v[j] - v[i]);
                s += sign;
                pairs++;
                if (sign != 0) untied++;
            }
        }
        return untied == 0 ? 0 : s / Math.sqrt((double) pairs * untied);
    }

    /**
     * Whether window shows growth: at least minSamples counts, tau-b at
     * least minTau, and the last above the first by at least minGrowth.
     */
    static boolean growing(long[] window, int minSamples, double minTau, long minGrowth) {
        int m = window.length;
        return m >= minSamples && m > 0 && window[m - 1] - window[0] >= minGrowth && tau(window) >= minTau;
    }
}
