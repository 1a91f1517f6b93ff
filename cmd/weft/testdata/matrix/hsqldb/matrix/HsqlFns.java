package matrix;

// The HSQLDB server's Java function probeSq (CREATE FUNCTION ... EXTERNAL
// NAME 'CLASSPATH:matrix.HsqlFns.probeSq'): it runs in the server's JVM.
public class HsqlFns {
    public static int probeSq(int x) { return x * x; }
}
