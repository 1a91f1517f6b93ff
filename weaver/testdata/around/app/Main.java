package app;

import aradv.Count;

// The program of TestAroundAgainstAspectJ: around advice (Around.aj for
// ajc, around.weft for weft) at each kind of join point changes its
// arguments and results; both woven runs must print the same.
public class Main {
    int f = 1;
    static int sf = 2;

    int twice(int x) { return 2 * x; }
    static String greet(String s) { return "hi " + s; }
    int skip(int x) { return x + 100; }
    static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
    void log(String s) { System.out.println("log " + s); }
    static int nullInt() { return 5; }
    static String str() { return "s"; }
    static long big(long a, double b) { return a + (long) b; }
    static int thrower(int x) {
        if (x > 0) {
            throw new IllegalStateException("x=" + x);
        }
        return x;
    }

    static int two(int x) { return x + 1; }
    static Object id(Object o) { return o; }

    public static void main(String[] args) {
        Main m = new Main();
        System.out.println("twice " + m.twice(5));
        System.out.println("greet " + greet("bob"));
        System.out.println("skip " + m.skip(1));
        System.out.println("fact " + fact(5));
        m.log("x");
        System.out.println("nullInt " + nullInt());
        try {
            System.out.println("str " + str());
        } catch (ClassCastException e) {
            System.out.println("str " + e.getClass().getName());
        }
        Point p = new Point(1, 2);
        System.out.println("point " + p);
        int[] a = new int[3];
        System.out.println("array " + a.length);
        System.out.println("f " + m.f);
        m.f = 4;
        System.out.println("f " + m.f);
        System.out.println("sf " + sf);
        Box b = new Box(1);
        System.out.println("box " + b.get());
        System.out.println("big " + big(1L, 2.5));
        System.out.println("thrower " + thrower(3));
        System.out.println("two " + two(2));
        System.out.println("id " + id("a") + " " + id(1));
        for (int i = 0; i < 3; i++) {
            System.out.println("loop " + m.twice(i));
        }
        Count.dump();
    }
}
