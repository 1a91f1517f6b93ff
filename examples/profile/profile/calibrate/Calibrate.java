package profile.calibrate;

/**
 * Woven like program code (the profile aspect leaves out package profile
 * only, and weft profile weaves this class): the profiler runs these to
 * measure its whole cost per execution, woven guard and advice calls
 * included.
 */
public final class Calibrate {
    private Calibrate() {}

    public static void loop(int n) {
        for (int i = 0; i < n; i++) empty();
    }

    public static void empty() {}
}
