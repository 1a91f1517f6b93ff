package nop;

/**
 * Advice that does nothing (bench/jdk.sh): a JDK woven with it costs the
 * woven code, the guard and the advice call, not the advice's own work.
 */
public final class Nop {
    private Nop() {}

    public static void hit(int id) {}
}
