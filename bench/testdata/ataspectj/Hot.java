package bench;

/**
 * The run-time program of bench/ataspectj.sh: fib(n) recursively, each
 * execution of fib an advised join point. It prints the result (stdout)
 * and the time the computation took (stderr).
 */
public final class Hot {
    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long start = System.nanoTime();
        int f = fib(n);
        System.out.println("fib " + f);
        System.err.println("loop: fib(" + n + ") in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
}
