package weft.bench;

/** The advice of nothing.weft: called at every execution and allocation, it does nothing. */
public final class Nothing {
    private Nothing() {}

    public static void hit(int id) {}
}
