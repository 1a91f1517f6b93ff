package weft.tools.profile.calibrate;

/**
 * Woven like program code, though in weft's namespace, which weft never
 * weaves otherwise (weft profile weaves this class alone of it on
 * purpose): the profiler runs these to measure its whole cost per
 * execution, woven guard and advice calls included.
 */
public final class Calibrate {
    private Calibrate() {}

    public static void loop(int n) {
        for (int i = 0; i < n; i++) empty();
    }

    public static void empty() {}
}
