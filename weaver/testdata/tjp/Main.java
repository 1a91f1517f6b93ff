package app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

// The program both weavers advise in the thisJoinPoint differential test
// (weaver/tjp_test.go): calls, executions, constructors and arrays with
// every kind of argument. toString bodies make no calls: the advice prints
// the objects.
public class Main {
    int f;

    Main() { this(7); }
    Main(int f) { this.f = f; }

    static class Base {
        protected final void m(int x) {}
        public static void s() {}
        public String toString() { return "base"; }
    }
    static class Sub extends Base {
        public String toString() { return "sub"; }
    }
    class Inner {
        Inner(String s) {}
        public String toString() { return "inner"; }
    }
    interface I {
        default void d() {}
        void a();
    }
    static class C implements I {
        public void a() {}
        public String toString() { return "c"; }
    }

    static int prims(int i, long l, double d, float fl, char c, boolean b, byte by, short sh) { return i; }
    static Object refs(String s, Object o, int[] a, List<String> l, Map.Entry<String, String> e, Main[] ms) { return o; }
    static synchronized void vargs(String... xs) {}
    static int modified(int x, String s) { x = x + 1; s = "changed"; return x; }
    strictfp double fp(double d) { return d; }
    private static void priv() {}
    void v() throws java.io.IOException {}
    public String toString() { return "main"; }

    public static void main(String[] args) throws Exception {
        prims(1, 2L, 3.5, 4.5f, 'c', true, (byte) 5, (short) 6);
        Main m = new Main();
        refs("s", m, new int[] {1, 2}, new ArrayList<String>(), null, new Main[1]);
        vargs("a", "b");
        modified(10, "orig");
        m.fp(1.25);
        priv();
        m.v();
        new Sub().m(1);
        Base.s();
        m.new Inner("q");
        I i = new C();
        i.d();
        i.a();
        List<String> l = new ArrayList<>();
        l.add("x");
        ArrayList<String> al = new ArrayList<>();
        al.toString();
        String.valueOf(3);
        String.format("%s-%d", "x", 4);
        int[] a = new int[3];
        System.arraycopy(a, 0, a, 1, 1);
        String[][] ss = new String[2][3];
        Object[] os = new Object[0];
        Runnable r = () -> priv();
        r.run();
    }
}
