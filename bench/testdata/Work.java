package work;

/** The overhead workloads: a recursive fib and a small-object loop. */
public class Work {
    static final class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        int sum() { return x + y; }
    }

    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    static long alloc(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            Point p = new Point(i, i + 1);
            s += p.sum();
        }
        return s;
    }

    /**
     * Runs the workload and prints the best time of one round in ns: wall
     * time, or with a third argument "cpu" the thread's CPU time (steadier
     * on a loaded machine; it leaves out the collector's threads).
     */
    public static void main(String[] args) {
        boolean isFib = args[0].equals("fib");
        int rounds = Integer.parseInt(args[1]);
        boolean cpu = args.length > 2 && args[2].equals("cpu");
        java.lang.management.ThreadMXBean threads = cpu ? java.lang.management.ManagementFactory.getThreadMXBean() : null;
        long best = Long.MAX_VALUE, sink = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime();
            sink += isFib ? fib(30) : alloc(1_000_000);
            long t = (cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime()) - t0;
            if (r >= rounds / 2 && t < best) best = t; // first half warms up
        }
        System.out.println("ns " + best + " sink " + sink);
    }
}
