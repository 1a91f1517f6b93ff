package app;

/** The cflow tests' program: recursion, nesting, unwinding, a thread. */
public class Cf {
    static int fib(int n) { return n < 2 ? leaf(n) : fib(n - 1) + fib(n - 2); }
    static int leaf(int n) { return n; }
    static int nest(int d) { return d <= 2 ? leaf(7) : nest(d - 1) + d; }
    static void thrower(int d) {
        if (d == 0) {
            outside();
            throw new IllegalStateException("bottom");
        }
        thrower(d - 1);
    }
    static void outside() {}
    Cf() { outside(); }
    void spawn() throws Exception {
        Thread t = new Thread(Cf::outside);
        t.start();
        t.join();
        outside();
    }
    void run2(int d) { if (d > 0) run2(d - 1); else outside(); }
    public static void main(String[] args) throws Exception {
        System.out.println(fib(10));
        System.out.println(nest(5));
        try {
            thrower(3);
        } catch (IllegalStateException e) {
            System.out.println(e.getMessage());
        }
        outside();
        Cf c = new Cf();
        c.spawn();
        c.run2(4);
        System.out.println(cfadv.Cnt.report());
    }
}
