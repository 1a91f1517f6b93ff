package weft.tools.leak;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import weft.rt.Output;

/**
 * The growth test and the tracker's output: leak.txt (read in seconds),
 * leak.json (everything, for tools), live.folded and live-bytes.folded
 * (folded stacks of the live objects, for weft flame).
 *
 * <p>A context is growing when, over the last leak.window points of the
 * history (at least 4, taken since the context appeared; they span about the
 * last half of the run's allocations or more: History), its live
 * estimate rises steadily — Kendall's tau-b between point order and live
 * count is at least leak.tau (0.8), see {@link Trend} — and it rose by at
 * least leak.minGrowth objects (16) from the first of those points to the
 * last, and by at least {@link Trend#RISE_TRACKED} tracked objects at the
 * sampling interval ({@link Trend#minRise}). Growing contexts are ranked by
 * that rise, then by the rise in bytes.
 */
final class Report {
    private Report() {}

    static final double TAU = Double.parseDouble(Tracker.setting("leak.tau", "WEFT_LEAK_TAU", "0.8"));
    static final long MIN_GROWTH = Long.parseLong(Tracker.setting("leak.minGrowth", "WEFT_LEAK_MIN_GROWTH", "16"));
    static final int MIN_SAMPLES = 4;
    static final int SHOWN = 10;

    /** A context as the report sees it at one moment. */
    static final class Row {
        final Context c;
        final long[] window; // live estimates at the points of the window, oldest first
        final long live, liveBytes, growth, bytesGrowth;
        final double tau;
        final boolean growing;

        Row(Context c, int points, long minGrowth) {
            this.c = c;
            // The points since the context appeared: before, it had no
            // count (not 0 objects), and a context seen at 3 points has
            // too short a history to call its rise steady.
            int m = Math.min(points - Sampler.HISTORY.first(c.born), Tracker.WINDOW);
            window = Arrays.copyOfRange(c.history, points - m, points);
            live = c.live;
            liveBytes = c.liveBytes;
            growth = m == 0 ? 0 : window[m - 1] - window[0];
            tau = Trend.tau(window);
            growing = Trend.growing(window, MIN_SAMPLES, TAU, minGrowth);
            long size = c.tracked == 0 ? 0 : liveBytes / Math.max(1, live);
            bytesGrowth = growth * size;
        }
    }

    // Comparators of classes of their own, not of lambdas: each lambda's
    // class would be spun through method handles, interpreted, at exit.
    static final Comparator<Row> BY_GROWTH = new Comparator<Row>() {
        @Override
        public int compare(Row a, Row b) {
            return order(Long.compare(-a.growth, -b.growth), Long.compare(-a.bytesGrowth, -b.bytesGrowth), a, b);
        }
    };
    static final Comparator<Row> BY_BYTES = new Comparator<Row>() {
        @Override
        public int compare(Row a, Row b) {
            return order(Long.compare(-a.liveBytes, -b.liveBytes), Long.compare(-a.live, -b.live), a, b);
        }
    };

    /** The first of two comparisons that is not 0, else the site frames'. */
    private static int order(int first, int second, Row a, Row b) {
        if (first != 0) return first;
        if (second != 0) return second;
        return a.c.siteFrame().compareTo(b.c.siteFrame());
    }

    /** The output directory. */
    static Path dir() {
        return Output.dir("leak.out", "WEFT_LEAK_OUT", "weft-leak");
    }

    /** What the report says of the whole run. */
    static final class Run {
        int samples, points, window, sites;
        /**
         * The sampling interval as the report began (allocating threads may
         * double it meanwhile), and the least rise that counts as growth at
         * it: every row is tested, and the report says it, with the same.
         */
        int interval;
        long minGrowth;
        long allocated;
        /** Contexts that hold allocations whose frames were lost to a full table, and their allocations. */
        int folded;
        long foldedAllocated;
        /** The share of the allocations, in percent, since the window's first point was first taken. */
        long span;
    }

    /** Writes every output file into leak.out (at exit, and every leak.period seconds if set). */
    static synchronized void write() { // Report.class held: the sampler does not write the history meanwhile
        Path out = dir();
        Run run = new Run();
        run.samples = Sampler.samples();
        run.points = Sampler.HISTORY.points;
        run.window = Math.min(run.points, Tracker.WINDOW);
        run.interval = Tracker.interval;
        run.minGrowth = Trend.minRise(MIN_GROWTH, run.interval);
        List<Row> rows = new ArrayList<>(), growing = new ArrayList<>();
        Set<Integer> sites = new HashSet<>();
        for (Context c : Tracker.CONTEXTS.keySet()) {
            Row r = new Row(c, run.points, run.minGrowth);
            rows.add(r);
            if (r.growing) growing.add(r);
            sites.add(c.siteId);
            long n = c.allocated();
            run.allocated += n;
            if (c.folded) {
                run.folded++;
                run.foldedAllocated += n;
            }
        }
        run.sites = sites.size();
        if (run.window > 0 && run.allocated > 0) {
            run.span = Math.round(100.0 * (run.allocated - Sampler.HISTORY.marks[run.points - run.window]) / run.allocated);
        }
        growing.sort(BY_GROWTH);
        rows.sort(BY_BYTES);
        try {
            Files.createDirectories(out);
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("leak.txt")))) {
                text(w, run, rows, growing);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("leak.json")))) {
                json(w, run, rows, growing);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("live.folded")))) {
                folded(w, rows, false);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("live-bytes.folded")))) {
                folded(w, rows, true);
            }
        } catch (IOException e) {
            System.err.println("leak: writing " + out + ": " + e);
        }
    }

    private static void text(PrintWriter w, Run run, List<Row> rows, List<Row> growing) {
        long live = 0, bytes = 0;
        for (Row r : rows) {
            live += r.live;
            bytes += r.liveBytes;
        }
        int interval = run.interval;
        w.printf("%,d allocations at %,d sites in %,d contexts; tracked %s; %,d samples (after collections)%n",
                run.allocated, run.sites, rows.size(), interval == 1 ? "every one" : "1 in " + interval, run.samples);
        w.printf("live at the last sample: %,d objects, %s%n", live, size(bytes));
        if (Tracker.UNTRACKED.get() > 0) {
            w.printf("warning: %,d sampled allocations not tracked: the table of %,d weak references was full%n",
                    Tracker.UNTRACKED.get(), Tracker.REFS.max());
        }
        if (run.folded > 0) {
            w.printf("warning: the table of %,d contexts was full: later contexts were counted at their site alone, without "
                    + "calling frames, at %,d sites (%,d allocations there); its size is a thirty-second of the heap "
                    + "(weft leak --tool-heap, or the command's -Xmx, raises it)%n",
                    Tracker.MAX_CONTEXTS, run.folded, run.foldedAllocated);
        }
        w.println();
        String window = String.format("%d points of history, the last %d %% of the allocations", run.window, run.span);
        if (run.points < MIN_SAMPLES) {
            w.printf("no growth test: %d points of history (samples far enough apart), it needs %d (run longer, or with a smaller heap: -Xmx)%n",
                    run.points, MIN_SAMPLES);
        } else if (growing.isEmpty()) {
            w.printf("no growing context (live objects rising over %s)%n", window);
        } else {
            w.printf("growing: %d context%s, the most growth first (over %s)%n",
                    growing.size(), growing.size() == 1 ? "" : "s", window);
            for (int i = 0; i < Math.min(SHOWN, growing.size()); i++) {
                Row r = growing.get(i);
                w.printf("%n%2d. %s  %s%n", i + 1, r.c.siteFrame(), r.c.location());
                w.printf("    +%,d objects (+%s), %,d live (%s), %,d allocated%n",
                        r.growth, size(r.bytesGrowth), r.live, size(r.liveBytes), r.c.allocated());
                for (weft.rt.JoinPointStaticPart f : r.c.frames()) w.printf("    in %s%n", Context.frame(f));
                if (r.c.folded) w.printf("    (calling frames lost: the table of contexts was full)%n");
                w.printf("    live at those points:");
                for (long v : r.window) w.printf(" %,d", v);
                w.println();
            }
        }
        w.println();
        w.println("most live bytes at the last sample:");
        for (int i = 0; i < Math.min(SHOWN, rows.size()) && rows.get(i).live > 0; i++) {
            Row r = rows.get(i);
            weft.rt.JoinPointStaticPart[] frames = r.c.frames();
            w.printf("  %10s %,10d  %s  %s%s%n", size(r.liveBytes), r.live, r.c.siteFrame(), r.c.location(),
                    frames.length > 0 ? " in " + Context.frame(frames[0]) : "");
        }
    }

    private static String size(long b) {
        if (b < 1024) return b + " B";
        if (b < 1024 * 1024) return String.format("%.1f KB", b / 1024.0);
        return String.format("%.1f MB", b / (1024.0 * 1024));
    }

    private static void json(PrintWriter w, Run run, List<Row> rows, List<Row> growing) {
        w.printf(Locale.ROOT, "{\"samples\":%d,\"points\":%d,\"window\":%d,\"windowSpan\":%d,\"interval\":%d,\"allocations\":%d,\"sites\":%d,\"contexts\":%d,"
                + "\"untracked\":%d,\"maxTracked\":%d,\"maxContexts\":%d,\"foldedContexts\":%d,\"foldedAllocations\":%d,"
                + "\"tau\":%s,\"minGrowth\":%d,%n\"growing\":[",
                run.samples, run.points, Tracker.WINDOW, run.span, run.interval, run.allocated, run.sites, rows.size(),
                Tracker.UNTRACKED.get(), Tracker.REFS.max(), Tracker.MAX_CONTEXTS, run.folded, run.foldedAllocated, TAU, run.minGrowth);
        String sep = "";
        for (Row r : growing) {
            w.print(sep);
            row(w, r);
            sep = ",\n";
        }
        w.print("],\n\"live\":[");
        sep = "";
        for (Row r : rows) {
            if (r.live == 0 || r.growing) continue;
            w.print(sep);
            row(w, r);
            sep = ",\n";
        }
        w.println("]}");
    }

    private static void row(PrintWriter w, Row r) {
        w.print("{\"site\":");
        weft.rt.JoinPointStaticPart site = r.c.site();
        string(w, site == null ? "?" : site.getDeclaringTypeName());
        w.print(",\"location\":");
        string(w, r.c.location());
        w.print(",\"context\":[");
        weft.rt.JoinPointStaticPart[] frames = r.c.frames();
        for (int i = 0; i < frames.length; i++) {
            if (i > 0) w.print(',');
            string(w, Context.frame(frames[i]));
        }
        w.print(']');
        if (r.c.folded) w.print(",\"framesLost\":true");
        w.printf(Locale.ROOT, ",\"allocated\":%d,\"tracked\":%d,\"live\":%d,\"liveBytes\":%d,\"growth\":%d,\"tau\":%.3f,\"history\":[",
                r.c.allocated(), r.c.tracked, r.live, r.liveBytes, r.growth, r.tau);
        for (int i = 0; i < r.window.length; i++) {
            if (i > 0) w.print(',');
            w.print(r.window[i]);
        }
        w.print("]}");
    }

    private static void string(PrintWriter w, String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        w.print(b.append('"'));
    }

    /** One line per context with live objects: its frames outermost first, the site last. */
    private static void folded(PrintWriter w, List<Row> rows, boolean bytes) {
        for (Row r : rows) {
            long v = bytes ? r.liveBytes : r.live;
            if (v <= 0) continue;
            StringBuilder b = new StringBuilder();
            weft.rt.JoinPointStaticPart[] frames = r.c.frames();
            for (int i = frames.length - 1; i >= 0; i--) b.append(Context.frame(frames[i])).append(';');
            w.println(b.append(r.c.siteFrame()).append(' ').append(v));
        }
    }
}
