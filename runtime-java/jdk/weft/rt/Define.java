package weft.rt;

/**
 * Defines a class weft makes at run time in the class loader of another:
 * the concrete aspect an aop.xml's &lt;concrete-aspect&gt; declares, which
 * extends an abstract aspect of the application (weft.at.Link). JDK mode:
 * java.base defines it in the loader directly, in any package of it, as
 * AspectJ's agent does with ClassLoader.defineClass (for which it needs
 * --add-opens java.base/java.lang).
 */
public final class Define {
    private Define() {}

    /** Defines the class of bytes b, named name (binary), in neighbor's loader. */
    public static Class<?> inLoaderOf(Class<?> neighbor, String name, byte[] b) {
        return jdk.internal.access.SharedSecrets.getJavaLangAccess().defineClass(neighbor.getClassLoader(), name, b,
                neighbor.getProtectionDomain(), "__weft_concrete_aspect__");
    }
}
