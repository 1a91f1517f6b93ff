package weft.tools.leak;

/**
 * The points of the growth test's history: which sample is a new point,
 * which refines the last one, and when the points thin out. Pure
 * arithmetic on the program's allocation counts, so that it is tested
 * alone; the sampler keeps one, under Report.class, and each context's
 * live counts by point.
 *
 * <p>A sample is a new point only if the program allocated, since the last
 * point was first taken, at least the spacing and a tenth of the span
 * between the last two points; else it refines the last point (its counts
 * replace that point's). At most capacity points are kept: when full,
 * every other point goes, the last kept, and the spacing becomes the
 * average gap of those kept. The last capacity / 2 points then span about the
 * last half of the allocations or more ((W - 1) / 2W at least, W = capacity
 * / 2: 7/16 for 8), however often the heap collects.
 */
final class History {
    /** The program's allocations when each point was first taken. */
    final long[] marks;
    /** The sample that last wrote each point. */
    final int[] written;
    /** Points taken so far. */
    int points;
    /** The allocations a new point must be apart from the last (0 until the history first fills). */
    long spacing;
    /** Allocations between the last two points (0 before the second: the program's start is no span). */
    long lastSpan;
    /** Whether the last add thinned the points: the caller thins its counts too (thin). */
    boolean thinned;

    History(int capacity) {
        marks = new long[capacity];
        written = new int[capacity];
    }

    /**
     * Records sample s, taken when the program had made allocated
     * allocations, and returns the point it writes. If the history was
     * full, it thinned first (thinned says so): the caller thins its counts
     * by point too before writing the point. The sample that thins is a
     * new point only if it is as far from the last point kept as the new
     * spacing; else it refines that point.
     */
    int add(int s, long allocated) {
        thinned = false;
        if (points == 0) {
            marks[points++] = allocated;
        } else if (allocated - marks[points - 1] >= Math.max(spacing, lastSpan / 10)) {
            if (points == marks.length) {
                int h = points / 2;
                thin(marks);
                for (int j = 0; j < h; j++) written[j] = written[2 * j + 1];
                points = h;
                spacing = (marks[h - 1] - marks[0]) / (h - 1);
                lastSpan = marks[h - 1] - marks[h - 2];
                thinned = true;
            }
            if (allocated - marks[points - 1] >= spacing) {
                lastSpan = allocated - marks[points - 1];
                marks[points++] = allocated;
            }
        }
        written[points - 1] = s;
        return points - 1;
    }

    /** Keeps every other value of v, a value by point, as the last add that thinned did the points. */
    void thin(long[] v) {
        for (int j = 0; j < marks.length / 2; j++) v[j] = v[2 * j + 1];
    }

    /** The first point a context born at sample born has a count at (points if none). */
    int first(int born) {
        int k = points;
        while (k > 0 && written[k - 1] >= born) k--;
        return k;
    }
}
