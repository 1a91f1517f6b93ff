package weft.at;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import weft.rt.JoinPointStaticPart;
import weft.rt.Proceed;

/**
 * The adapters @AspectJ advice receives: org.aspectj.lang views of weft's
 * join point objects, made by the calls {@link Link} puts between a
 * dispatcher's arguments and the advice method.
 *
 * <p>A join point view is made per advice call (the JIT may remove it when
 * the advice does not keep it); a static part's view once per static part,
 * kept in the part itself, so that advice sees one object per shadow, as
 * under AspectJ.
 */
public final class AJ {
    private AJ() {}

    /** Serializes the making of static part views (once per shadow). */
    private static final Object LOCK = new Object();

    /** thisJoinPoint for before and after advice. */
    public static JoinPoint jp(weft.rt.JoinPoint jp) {
        return new JP(part(jp.getStaticPart()), jp);
    }

    /** thisJoinPoint for around advice: proceeds through p. */
    public static ProceedingJoinPoint pjp(Proceed p, weft.rt.JoinPoint jp) {
        return new PJP(part(jp.getStaticPart()), jp, p);
    }

    /** thisJoinPointStaticPart. */
    public static JoinPoint.StaticPart sp(JoinPointStaticPart sp) {
        return part(sp);
    }

    /**
     * thisEnclosingJoinPointStaticPart: the same view as sp, whose class
     * implements both interfaces (an enclosing part is a static part).
     */
    public static JoinPoint.EnclosingStaticPart esp(JoinPointStaticPart sp) {
        return part(sp);
    }

    /** The view of sp, made at its first use. */
    static Part part(JoinPointStaticPart sp) {
        Object p = sp.getAspectJPart();
        if (p == null) {
            // Double-checked: Part's fields are final, so a thread that
            // reads one without the lock sees it whole.
            synchronized (LOCK) {
                p = sp.getAspectJPart();
                if (p == null) {
                    p = new Part(sp);
                    sp.setAspectJPart(p);
                }
            }
        }
        return (Part) p;
    }

    /**
     * The class named name ("int", "java.lang.String[]", "java.util.Map$Entry",
     * "[I"), loaded without initializing it by hint, else the thread's
     * context class loader, else the system class loader; null if none
     * finds it. The views' Class-valued getters say null for a type they
     * cannot see rather than throw at advice that only prints.
     */
    static Class<?> type(String name, ClassLoader hint) {
        if (name == null) {
            return null;
        }
        switch (name) {
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "short": return short.class;
            case "int": return int.class;
            case "long": return long.class;
            case "float": return float.class;
            case "double": return double.class;
            case "void": return void.class;
        }
        String n = weft.rt.Signature.className(name);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader system = ClassLoader.getSystemClassLoader();
        for (ClassLoader l : new ClassLoader[] {hint, context, system}) {
            if (l == null) {
                continue;
            }
            try {
                return Class.forName(n, false, l);
            } catch (ClassNotFoundException | LinkageError | SecurityException e) {
                // try the next loader
            }
        }
        return null;
    }

    /** The loader of o's class, null for null or a boot class. */
    static ClassLoader loaderOf(Object o) {
        return o == null ? null : o.getClass().getClassLoader();
    }
}
