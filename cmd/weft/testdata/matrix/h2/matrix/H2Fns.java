package matrix;

// The H2 server's Java function PROBE_SQ.
public class H2Fns {
    public static int probeSq(int x) { return x * x; }
}
