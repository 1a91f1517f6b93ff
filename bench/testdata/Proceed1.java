package aroundadv;

import weft.rt.Proceed;

/** The advice of around.weft: count the join point, then proceed once. */
public final class Proceed1 {
    private Proceed1() {}

    public static Object run(Proceed p, int id) throws Throwable {
        weft.tools.count.Counter.hit(id);
        return p.proceed();
    }
}
