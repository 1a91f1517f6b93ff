package app;

import java.util.*;
import java.util.concurrent.*;
import java.util.function.*;

interface Shape {
    double area();
    default String describe() { return getClass().getSimpleName() + " " + area(); }
}

class Square implements Shape {
    final double side;
    Square(double side) { this.side = side; }
    Square() { this(make(2)); }
    static double make(int x) { return Double.valueOf(x).doubleValue(); }
    public double area() { return side * side; }
}

class Base {
    final String name;
    Base(String name) { this.name = name; }
}

class Derived extends Base {
    final int[] data;
    Derived(int n) { super(String.valueOf(new StringBuilder("d").append(n))); data = new int[n]; }
    Derived() { this(new int[] {3}.length); }
}

class Boom {
    Boom() { throw new IllegalStateException("ctor"); }
}

public class All {
    static int counter;

    static void v() { counter++; }
    static boolean z(boolean b) { return !b; }
    static byte b(byte x) { return (byte) (x + 1); }
    static char c(char x) { return (char) (x + 1); }
    static short s(short x) { return (short) (x * 2); }
    static long l(long x) { return x * 3; }
    static float f(float x) { return x / 2; }
    static double d(double x, long y, int z) { return x + y + z; }
    static String str(String s) { return s + s; }
    static int[][] grid(int a, int b) { return new int[a][b]; }
    static Object[] objs(int n) { return new Object[n]; }

    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    static int tryStuff(int x) {
        int r = 0;
        try {
            try {
                if (x == 1) throw new IllegalArgumentException("one");
                r = 10 / (x - 2);
            } catch (IllegalArgumentException e) {
                r = -1;
            } finally {
                r += 100;
            }
        } catch (ArithmeticException e) {
            r = -2;
        }
        return r;
    }

    static int thrower(int x) {
        if (x > 0) throw new UnsupportedOperationException("t" + x);
        return x;
    }

    private final Object lock = new Object();
    synchronized int syncMethod(int x) { return x + 1; }
    int syncBlock(int x) { synchronized (lock) { return x * 2; } }

    static String sw(int k, String s) {
        String r;
        switch (k) {
            case 0: r = "zero"; break;
            case 1: r = "one"; break;
            case 2: r = "two"; break;
            case 10: r = "ten"; break;
            default: r = "many";
        }
        switch (s) {
            case "a": return r + "/A";
            case "b": return r + "/B";
            default: return r + "/?";
        }
    }

    static int lambdas(List<Integer> xs) {
        Function<Integer, Integer> sq = x -> x * x;
        IntBinaryOperator add = Integer::sum;
        int total = 0;
        for (int x : xs) total = add.applyAsInt(total, sq.apply(x));
        Supplier<String> sup = () -> "sup";
        return total + sup.get().length();
    }

    static int far(int x) {
        int y = 0;
        if (x > 0) {
            // A long body forces the branch over it to goto_w after weaving.
            BIG
        }
        return y + x;
    }

    static int threads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            final int k = i;
            fs.add(pool.submit(() -> fib(k + 5)));
        }
        int sum = 0;
        for (Future<Integer> f : fs) sum += f.get();
        pool.shutdown();
        int p = ForkJoinPool.commonPool().submit(() -> fib(10)).get();
        return sum + p;
    }

    public static void main(String[] args) throws Exception {
        v();
        System.out.println(z(true) + " " + b((byte) 1) + " " + c('a') + " " + s((short) 4) + " " + l(5) + " " + f(3f) + " " + d(1.5, 2, 3));
        System.out.println(str("ab") + " " + grid(2, 3)[1].length + " " + objs(4).length);
        System.out.println("fib " + fib(10));
        System.out.println("try " + tryStuff(1) + " " + tryStuff(2) + " " + tryStuff(4));
        for (int i = 0; i < 2; i++) {
            try {
                System.out.println("thrower " + thrower(i));
            } catch (UnsupportedOperationException e) {
                System.out.println("caught " + e.getMessage());
            }
        }
        All a = new All();
        System.out.println("sync " + a.syncMethod(1) + " " + a.syncBlock(2));
        System.out.println(sw(0, "a") + " " + sw(2, "b") + " " + sw(10, "c") + " " + sw(7, "a"));
        System.out.println("lambdas " + lambdas(Arrays.asList(1, 2, 3)));
        Shape sq = new Square();
        System.out.println(sq.describe() + " " + new Square(3).describe());
        Derived dv = new Derived();
        System.out.println("derived " + dv.name + " " + dv.data.length + " " + new Derived(2).name);
        System.out.println("far " + far(1) + " " + far(0));
        System.out.println("threads " + threads());
        try { new Boom(); } catch (IllegalStateException e) { System.out.println("boom " + e.getMessage()); }
        try { System.out.println(new int[-1 - counter].length); } catch (NegativeArraySizeException e) { System.out.println("negative"); }
        long[][][] cube = new long[2][3][];
        System.out.println("cube " + cube.length + " " + cube[1].length);
        System.out.println("counter " + counter);
    }
}
