package weft.rt;

import java.lang.reflect.InvocationTargetException;
import java.util.WeakHashMap;

/**
 * Which class loaders see weft's runtime. Woven code names weft.rt's
 * classes and the advice classes, boot classes that a class resolves
 * through its own loader: a loader that does not delegate them to its
 * parent (Ant's isolated AntClassLoader, child-first loaders that delegate
 * java.* only, OSGi bundles' loaders) would make every woven class of it
 * fail with NoClassDefFoundError at its first advised join point. Its
 * classes are sent bridged instead (LTWClient.BRIDGED): woven to reach the
 * runtime and the advice through java.lang.invoke.
 *
 * <p>The answer must be the one the JVM gets when it links a woven class
 * of that loader, and a loader may answer by who asks: Felix's implicit
 * boot delegation gives a class outside every bundle (as this one is) the
 * parent's classes, and a bundle's own classes not. So the test is made as
 * a woven class makes it: a probe class is defined in the loader (once per
 * loader, the first time it defines a class, with the thread's bypass flag
 * set) and run; its one method loads the constant weft.rt.BIB, which the
 * JVM resolves through the loader with the probe's frame on top of the
 * stack.
 */
final class LTWLoaders {
    private LTWLoaders() {}

    private static final WeakHashMap<ClassLoader, Boolean> SEEN = new WeakHashMap<>();

    /** Numbers the probe classes: one name is never defined twice. */
    private static int probes;

    /** Whether loader resolves weft.rt.BIB to this runtime's class. */
    static boolean seeRuntime(ClassLoader loader) {
        if (loader == null || loader == jdk.internal.loader.ClassLoaders.appClassLoader()
                || loader == jdk.internal.loader.ClassLoaders.platformClassLoader()) {
            return true;
        }
        int n;
        synchronized (SEEN) {
            Boolean b = SEEN.get(loader);
            if (b != null) {
                return b;
            }
            n = ++probes;
        }
        boolean sees = probe(loader, "weft$rt$Probe" + n);
        synchronized (SEEN) {
            SEEN.put(loader, sees);
        }
        return sees;
    }

    /** Defines the probe class name in loader and runs it. */
    private static boolean probe(ClassLoader loader, String name) {
        Class<?> c;
        try {
            c = jdk.internal.access.SharedSecrets.getJavaLangAccess().defineClass(loader, name, probeClass(name), null,
                    "__weft_probe__");
        } catch (Throwable e) {
            // A loader that defines no class of ours defines no sister either.
            return false;
        }
        try {
            return c.getMethod("p").invoke(null) == BIB.class;
        } catch (InvocationTargetException e) {
            return false; // NoClassDefFoundError: the loader does not see weft.rt
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * The class file of {@code public class NAME { public static Object p()
     * { return weft.rt.BIB.class; } }}, version 52: straight-line code, so
     * no stack map.
     */
    static byte[] probeClass(String name) {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream(160);
        java.io.DataOutputStream out = new java.io.DataOutputStream(buf);
        try {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0); // minor
            out.writeShort(52); // major
            out.writeShort(10); // constant pool count
            utf8(out, name); // #1
            classRef(out, 1); // #2
            utf8(out, "java/lang/Object"); // #3
            classRef(out, 3); // #4
            utf8(out, "weft/rt/BIB"); // #5
            classRef(out, 5); // #6
            utf8(out, "p"); // #7
            utf8(out, "()Ljava/lang/Object;"); // #8
            utf8(out, "Code"); // #9
            out.writeShort(0x0021); // public super
            out.writeShort(2); // this
            out.writeShort(4); // super
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(1); // methods
            out.writeShort(0x0009); // public static
            out.writeShort(7);
            out.writeShort(8);
            out.writeShort(1); // attributes
            out.writeShort(9); // Code
            out.writeInt(2 + 2 + 4 + 3 + 2 + 2);
            out.writeShort(1); // max stack
            out.writeShort(0); // max locals
            out.writeInt(3); // code length
            out.writeByte(0x12); // ldc #6
            out.writeByte(6);
            out.writeByte(0xB0); // areturn
            out.writeShort(0); // exception table
            out.writeShort(0); // attributes
            out.writeShort(0); // class attributes
        } catch (java.io.IOException e) {
            throw new InternalError(e);
        }
        return buf.toByteArray();
    }

    private static void utf8(java.io.DataOutputStream out, String s) throws java.io.IOException {
        out.writeByte(1);
        out.writeUTF(s);
    }

    private static void classRef(java.io.DataOutputStream out, int name) throws java.io.IOException {
        out.writeByte(7);
        out.writeShort(name);
    }
}
