package weft.rt;

import java.lang.invoke.MethodHandles;

/**
 * Defines a class weft makes at run time in the class loader of another:
 * the concrete aspect an aop.xml's &lt;concrete-aspect&gt; declares, which
 * extends an abstract aspect of the application (weft.at.Link). This is
 * the application-mode implementation: through a private lookup in the
 * neighbour, so the class must be in the neighbour's package.
 */
public final class Define {
    private Define() {}

    /** Defines the class of bytes b, named name (binary), in neighbor's loader and package. */
    public static Class<?> inLoaderOf(Class<?> neighbor, String name, byte[] b) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(neighbor, MethodHandles.lookup()).defineClass(b);
    }
}
