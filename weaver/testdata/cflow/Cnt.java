package cfadv;

/** Advice of the cflow tests: one counter per advice (c sums values). */
public class Cnt {
    static final long[] N = new long[13];
    public static void a() { N[0]++; }
    public static void b() { N[1]++; }
    public static void c(int n) { N[2] += n; }
    public static void d() { N[3]++; }
    public static void e() { N[4]++; }
    public static void f() { N[5]++; }
    public static void g() { N[6]++; }
    public static void h() { N[7]++; }
    public static void i() { N[8]++; }
    public static void j() { N[9]++; }
    public static void k(int d, Object o) { if (o != null) N[10] += d; }
    public static void l() { N[11]++; }
    public static void m() { N[12]++; }
    public static boolean even(int n) { return n % 2 == 0; }
    public static String report() {
        StringBuilder b = new StringBuilder("counts");
        for (long n : N) b.append(' ').append(n);
        return b.toString();
    }
}
