package weft.rt;

import java.nio.ByteBuffer;

/**
 * Load-time weaving, JDK mode only: the woven java.base calls these methods
 * from the wrappers weft adds around the natives that define classes
 * (ClassLoader.defineClass0/1/2, Unsafe.defineClass0). Each returns null
 * (define the original bytes) or {woven class bytes, sister class binary
 * name or null, sister bytes}: the wrapper defines the sister first, in the
 * same loader and package, then the woven class, and passes it to defined
 * (docs/ltw.md).
 *
 * <p>This class has no static initializer: the wrappers call it from the
 * first class definition on, during bootstrap too, where it returns null
 * before touching anything. The weaving itself runs with the thread's
 * bypass flag set, so nothing it runs is advised and a class it makes the
 * JVM define (the channel's own classes) is defined unwoven instead of
 * recursing. It never throws: any fault defines the original bytes.
 */
public final class LTW {
    private LTW() {}

    /** Request kinds (docs/ltw.md). */
    public static final int NORMAL = 0, HIDDEN = 1, LOOKUP = 2;

    /**
     * ClassLoader.defineClass1's bytes; source is the class's code source
     * (a URL: its jar, or null), whose other classes weft may weave ahead.
     */
    public static Object[] weave(ClassLoader loader, String name, byte[] b, int off, int len, String source) {
        return request(loader, NORMAL, null, name, b, off, len, source);
    }

    /** ClassLoader.defineClass2's bytes (a direct buffer). */
    public static Object[] weaveBuffer(ClassLoader loader, String name, ByteBuffer b, int off, int len, String source) {
        if (!BIB.ready || len < 0) {
            return null;
        }
        byte[] copy;
        try {
            copy = new byte[len];
            b.get(off, copy);
        } catch (Throwable e) {
            return null; // the native reports the bad buffer as before
        }
        return request(loader, NORMAL, null, name, copy, 0, len, source);
    }

    /** ClassLoader.defineClass0's bytes: Lookup.defineClass and hidden classes. */
    public static Object[] weaveLookup(ClassLoader loader, Class<?> lookup, String name, byte[] b, int off, int len, int flags) {
        // java.lang.invoke.MethodHandleNatives.Constants.HIDDEN_CLASS
        return request(loader, (flags & 2) != 0 ? HIDDEN : LOOKUP, lookup, name, b, off, len, null);
    }

    /** The JVM refused the woven class or its sister: the original is defined. */
    public static void rejected(Throwable e, String name) {
        Thread t = Thread.currentThread();
        boolean old = t.weft$dib;
        t.weft$dib = true;
        try {
            LTWClient.rejected(name, e);
        } catch (Throwable ignored) {
            // nothing to do: the original bytes are defined next
        } finally {
            t.weft$dib = old;
        }
    }

    /**
     * The woven class c was defined: if its module is a named one that
     * cannot reach weft's runtime or the advice (a module of a layer the
     * program made, a Proxy class's dynamic module jdk.proxyN), it is given
     * that access before any of its code runs (the natives that call this
     * never initialize the class).
     */
    public static void defined(Class<?> c) {
        Thread t = Thread.currentThread();
        boolean old = t.weft$dib;
        t.weft$dib = true;
        try {
            grant(c.getModule());
        } catch (Throwable ignored) {
            // the class's advice calls fail to link, as without the grant
        } finally {
            t.weft$dib = old;
        }
    }

    /**
     * Asks for the class to be woven; weft may ask back for the bytes of
     * supertypes it has not seen, which loader's resources give. lookup, if
     * known, is a class of the new class's module: a woven class's named
     * module is given access to weft's runtime and the advice before the
     * class is defined (a hidden class may be initialized as it is).
     */
    private static Object[] request(ClassLoader loader, int kind, Class<?> lookup, String name, byte[] b, int off, int len, String source) {
        if (!BIB.ready) {
            return null;
        }
        Thread t = Thread.currentThread();
        if (t.weft$dib) {
            return null; // inside advice or weft itself
        }
        t.weft$dib = true;
        // An interrupt would close the channel (ClosedByInterruptException:
        // load-time weaving stopped for the whole JVM): the thread's status
        // is cleared for the exchange and set again after it.
        boolean interrupted = Thread.interrupted();
        try {
            Object[] r = LTWClient.weave(loader, kind, name, b, off, len, source);
            if (r != null && lookup != null) {
                grant(lookup.getModule());
            }
            return r;
        } catch (Throwable e) {
            return null;
        } finally {
            if (interrupted) {
                t.interrupt();
            }
            t.weft$dib = false;
        }
    }

    /**
     * Makes named module m reach weft's runtime (weft.rt exported to it)
     * and the advice (on the boot class path: m reads the unnamed
     * modules), as weft run's --add-exports and --add-reads do for the
     * modules on java's module path.
     */
    private static void grant(Module m) {
        if (!m.isNamed()) {
            return;
        }
        Module base = LTW.class.getModule();
        if (!base.isExported("weft.rt", m)) {
            jdk.internal.module.Modules.addExports(base, "weft.rt", m);
        }
        if (!m.canRead(jdk.internal.loader.BootLoader.getUnnamedModule())) {
            jdk.internal.module.Modules.addReadsAllUnnamed(m);
        }
    }
}
