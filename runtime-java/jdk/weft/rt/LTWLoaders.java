package weft.rt;

import java.util.WeakHashMap;

/**
 * Which class loaders see weft's runtime. Woven code names weft.rt's
 * classes and the advice classes, boot classes that a class resolves
 * through its own loader: a loader that does not delegate them to its
 * parent (Ant's isolated AntClassLoader, child-first loaders that delegate
 * java.* only) would make every woven class of it fail with
 * NoClassDefFoundError at its first advised join point. Its classes are
 * defined unwoven instead, and the server records them with the reason
 * (LTWClient.unseen).
 *
 * <p>The test asks the loader for weft.rt.BIB once per loader, the first
 * time it defines a class, with the thread's bypass flag set: what the JVM
 * itself does to resolve a new class's superclass, mid-definition.
 */
final class LTWLoaders {
    private LTWLoaders() {}

    private static final WeakHashMap<ClassLoader, Boolean> SEEN = new WeakHashMap<>();

    /** Whether loader resolves weft.rt.BIB to this runtime's class. */
    static boolean seeRuntime(ClassLoader loader) {
        if (loader == null || loader == jdk.internal.loader.ClassLoaders.appClassLoader()
                || loader == jdk.internal.loader.ClassLoaders.platformClassLoader()) {
            return true;
        }
        synchronized (SEEN) {
            Boolean b = SEEN.get(loader);
            if (b != null) {
                return b;
            }
        }
        boolean sees;
        try {
            sees = Class.forName("weft.rt.BIB", false, loader) == BIB.class;
        } catch (Throwable e) {
            sees = false;
        }
        synchronized (SEEN) {
            SEEN.put(loader, sees);
        }
        return sees;
    }
}
