package diffadv;

import java.util.concurrent.atomic.AtomicLong;

/** Advice of the AspectJ differential test: one counter per advice. */
public class Counter {
    static final AtomicLong[] N = new AtomicLong[6];
    static {
        for (int i = 0; i < N.length; i++) N[i] = new AtomicLong();
    }
    public static void a() { N[0].incrementAndGet(); }
    public static void b() { N[1].incrementAndGet(); }
    public static void c() { N[2].incrementAndGet(); }
    public static void d() { N[3].incrementAndGet(); }
    public static void e() { N[4].incrementAndGet(); }
    public static void f(String s) { if (s == null || s.length() >= 0) N[5].incrementAndGet(); }
    /** if() of CflowDiff. */
    public static boolean yes(String s) { return s != null && s.length() > 1; }
    public static String report() {
        StringBuilder b = new StringBuilder("counts");
        for (AtomicLong n : N) b.append(' ').append(n.get());
        return b.toString();
    }
}
