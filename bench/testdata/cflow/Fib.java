package fib;

/**
 * The cflow benchmark's program: fib(25) from run(), timed in process, best
 * of many rounds after warm-up, so the figure is the steady state the JIT
 * reaches (ns per fib call).
 */
public class Fib {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    static int run(int n) { return fib(n); }

    static int other(int n) { return n; }

    public static void main(String[] args) {
        int n = 25, calls = 242785; // fib(25) makes 242,785 calls
        long best = Long.MAX_VALUE;
        int sink = 0;
        for (int round = 0; round < 60; round++) {
            long t0 = System.nanoTime();
            for (int k = 0; k < 10; k++) {
                sink += run(n) + other(k);
            }
            best = Math.min(best, System.nanoTime() - t0);
        }
        System.out.printf("%.2f ns/call%s%n", best / 10.0 / calls, sink == 42 ? "!" : "");
    }
}
