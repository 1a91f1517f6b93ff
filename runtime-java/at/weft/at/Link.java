package weft.at;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.reflect.Constructor;
import java.util.HashSet;
import java.util.Set;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.NoAspectBoundException;
import org.aspectj.lang.ProceedingJoinPoint;
import weft.rt.Conversions;
import weft.rt.JoinPointStaticPart;
import weft.rt.Proceed;

/**
 * Links the dispatchers weft generates for @AspectJ advice to the advice
 * methods. A dispatcher, on the boot class path, calls its advice through
 * a MutableCallSite that does nothing until its class initializes and calls
 * {@link #link}: the aspect stays in the application class loader, which
 * boot classes cannot name.
 *
 * <p>An aspect whose class, instance or method cannot be had is reported
 * once on System.err and its advice left doing nothing: a program runs the
 * same as unwoven rather than fail at a dispatcher's initialization.
 */
public final class Link {
    private Link() {}

    /**
     * The aspect instance of each class: made once, at the first advice or
     * aspectOf that needs it. A ClassValue's value may be computed twice
     * in a race (one kept), so it holds a cell that makes the instance
     * under its lock.
     */
    private static final ClassValue<Instance> ASPECTS = new ClassValue<Instance>() {
        @Override
        protected Instance computeValue(Class<?> c) {
            return new Instance();
        }
    };

    private static final class Instance {
        private Object aspect;

        synchronized Object get(Class<?> c) throws ReflectiveOperationException {
            if (aspect == null) {
                aspect = woven(c);
            }
            if (aspect == null) {
                Constructor<?> k = c.getDeclaredConstructor();
                k.setAccessible(true);
                aspect = k.newInstance();
            }
            return aspect;
        }

        /**
         * The instance of an aspect AspectJ's weaver has processed (a
         * library woven after javac, as Micrometer's aspects are): its own
         * public static aspectOf(), so that the program and weft share the
         * one instance AspectJ made; null for javac's aspects.
         */
        private static Object woven(Class<?> c) throws ReflectiveOperationException {
            java.lang.reflect.Method m;
            try {
                m = c.getMethod("aspectOf");
            } catch (NoSuchMethodException e) {
                return null;
            }
            if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m.getReturnType() != c) {
                return null;
            }
            try {
                return m.invoke(null);
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof RuntimeException) {
                    throw (RuntimeException) t;
                }
                if (t instanceof Error) {
                    throw (Error) t;
                }
                throw e;
            }
        }

        synchronized boolean made() {
            return aspect != null;
        }
    }

    /**
     * The aspects aop.xml files define (concrete-aspect), by binary name:
     * the abstract aspect each extends.
     */
    private static final java.util.Map<String, String> CONCRETE = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Declares the concrete aspect name, which extends the abstract aspect
     * superName: no class file holds it, aspectClass defines it.
     */
    public static void concrete(String name, String superName) {
        CONCRETE.put(name, superName);
    }

    /**
     * The aspect class name, loaded and initialized by the system class
     * loader; a concrete aspect of an aop.xml is defined first, in its
     * abstract aspect's loader.
     */
    static Class<?> aspectClass(String name) throws ClassNotFoundException, IllegalAccessException {
        ClassLoader sys = ClassLoader.getSystemClassLoader();
        String sup = CONCRETE.get(name);
        if (sup == null) {
            return Class.forName(name, true, sys);
        }
        synchronized (CONCRETE) {
            try {
                return Class.forName(name, true, sys);
            } catch (ClassNotFoundException e) {
                Class<?> s = Class.forName(sup, false, sys);
                Class<?> c = weft.rt.Define.inLoaderOf(s, name, concreteClass(name.replace('.', '/'), sup.replace('.', '/')));
                return Class.forName(c.getName(), true, c.getClassLoader());
            }
        }
    }

    /**
     * The class file of {@code public class NAME extends SUPER { public
     * NAME() { super(); } }}, version 52: straight-line code, no stack map.
     */
    static byte[] concreteClass(String name, String sup) {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream(200);
        java.io.DataOutputStream out = new java.io.DataOutputStream(buf);
        try {
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(52);
            out.writeShort(10); // constant pool count
            out.writeByte(1); out.writeUTF(name); // #1
            out.writeByte(7); out.writeShort(1); // #2 this
            out.writeByte(1); out.writeUTF(sup); // #3
            out.writeByte(7); out.writeShort(3); // #4 super
            out.writeByte(1); out.writeUTF("<init>"); // #5
            out.writeByte(1); out.writeUTF("()V"); // #6
            out.writeByte(12); out.writeShort(5); out.writeShort(6); // #7 <init>:()V
            out.writeByte(10); out.writeShort(4); out.writeShort(7); // #8 super.<init>
            out.writeByte(1); out.writeUTF("Code"); // #9
            out.writeShort(0x0021); // public super
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(1); // methods
            out.writeShort(0x0001); // public
            out.writeShort(5);
            out.writeShort(6);
            out.writeShort(1); // attributes
            out.writeShort(9); // Code
            out.writeInt(2 + 2 + 4 + 5 + 2 + 2);
            out.writeShort(1); // max stack
            out.writeShort(1); // max locals
            out.writeInt(5);
            out.writeByte(0x2A); // aload_0
            out.writeByte(0xB7); // invokespecial #8
            out.writeShort(8);
            out.writeByte(0xB1); // return
            out.writeShort(0); // exception table
            out.writeShort(0); // code attributes
            out.writeShort(0); // class attributes
        } catch (java.io.IOException e) {
            throw new InternalError(e);
        }
        return buf.toByteArray();
    }

    /** The warnings printed, so that each is printed once. */
    private static final Set<String> WARNED = new HashSet<>();

    /** The adapters' handles, by role. */
    private static final MethodHandle JP, PJP, SP, ESP;

    static {
        MethodHandles.Lookup l = MethodHandles.lookup();
        try {
            JP = l.findStatic(AJ.class, "jp", MethodType.methodType(JoinPoint.class, weft.rt.JoinPoint.class));
            PJP = l.findStatic(AJ.class, "pjp",
                    MethodType.methodType(ProceedingJoinPoint.class, Proceed.class, weft.rt.JoinPoint.class));
            SP = l.findStatic(AJ.class, "sp",
                    MethodType.methodType(JoinPoint.StaticPart.class, JoinPointStaticPart.class));
            ESP = l.findStatic(AJ.class, "esp",
                    MethodType.methodType(JoinPoint.EnclosingStaticPart.class, JoinPointStaticPart.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The instance of the aspect class c: its own aspectOf()'s where
     * AspectJ's weaver gave it one, else made with its no-argument
     * constructor if it is not yet; throws AspectJ's NoAspectBoundException
     * if it cannot be made.
     */
    public static Object aspectOf(Class<?> c) {
        try {
            return ASPECTS.get(c).get(c);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new NoAspectBoundException(c.getName(), e);
        }
    }

    /**
     * The aspects whose advice weft links, by binary name: those
     * org.aspectj.lang.Aspects asks weft about rather than the class.
     */
    private static final Set<String> LINKED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The instances of the aspects with a per-clause, by binary name. */
    static final java.util.Map<String, Per> PERS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The instance of aspect c that org.aspectj.lang.Aspects.aspectOf
     * asks for: of a singleton (key null), of the current control flow
     * (percflow, key null), of the object key (perthis, pertarget) or of
     * the class key (pertypewithin); null when weft does not run c.
     * Throws NoAspectBoundException when weft runs c and there is none.
     */
    public static Object instanceOf(Class<?> c, Object key) {
        Per per = PERS.get(c.getName());
        if (per != null) {
            Object a = per.instanceFor(key);
            if (a == null) {
                throw new NoAspectBoundException(c.getName(), null);
            }
            return a;
        }
        if (!LINKED.contains(c.getName())) {
            return null;
        }
        if (key != null) {
            throw new NoAspectBoundException(c.getName() + " is a singleton", null);
        }
        return aspectOf(c);
    }

    /** Whether aspect c has an instance for key, as instanceOf; null when weft does not run c. */
    public static Boolean hasInstance(Class<?> c, Object key) {
        Per per = PERS.get(c.getName());
        if (per != null) {
            return per.instanceFor(key) != null;
        }
        if (!LINKED.contains(c.getName())) {
            return null;
        }
        return key == null && hasAspect(c);
    }

    /** Reports whether c's aspect instance has been made. */
    public static boolean hasAspect(Class<?> c) {
        return ASPECTS.get(c).made();
    }

    /**
     * Points site at advice method (JVM descriptor desc) of class aspect
     * (a binary name, loaded and initialized by the system class loader),
     * on its instance unless isStatic. roles has a character per parameter
     * of the method, saying what the dispatcher passes for it, in order,
     * after an 'i' when the dispatcher passes the instance itself (an
     * aspect with a per-clause, whose instance it looks up in a Per):
     * 'f' a formal (a reference as Object, a primitive as itself), 'J' a
     * weft.rt.JoinPoint for an org.aspectj.lang.JoinPoint, 'P' a
     * weft.rt.Proceed then a weft.rt.JoinPoint (two arguments) for a
     * ProceedingJoinPoint, 'S' and 'E' a weft.rt.JoinPointStaticPart for a
     * JoinPoint.StaticPart or EnclosingStaticPart. The advice's result is
     * converted to the site's return type: dropped for void; from a
     * reference to a primitive as AspectJ converts (null is 0). On failure
     * the site is left as it is and a warning printed once; never throws.
     */
    public static void link(MutableCallSite site, String aspect, String method, String desc, String roles,
            boolean isStatic) {
        String step = "cannot load the class";
        try {
            LINKED.add(aspect);
            Class<?> c = aspectClass(aspect);
            step = "no method " + method + desc;
            MethodType mt = MethodType.fromMethodDescriptorString(desc, c.getClassLoader());
            // 'i' first: the dispatcher passes the instance (an aspect
            // with a per-clause), which the site then does not bind.
            boolean passed = roles.startsWith("i");
            if (mt.parameterCount() + (passed ? 1 : 0) != roles.length()) {
                step = "roles " + roles + " do not fit " + method + desc;
                throw new IllegalArgumentException(roles.length() + " roles, " + mt.parameterCount() + " parameters");
            }
            MethodHandle mh = find(c, method, mt, isStatic);
            if (!isStatic && !passed) {
                step = "cannot make its instance";
                mh = mh.bindTo(ASPECTS.get(c).get(c));
            }
            step = "cannot adapt " + method + desc + " to the dispatcher's type " + site.type();
            site.setTarget(adapt(mh, roles, site.type()));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            warnOnce("weft: warning: @AspectJ aspect " + aspect + ": " + step + " (" + e + "); its advice " + method
                    + " does not run");
        }
    }

    /** The public method, by publicLookup; else, the class not being public, by a private lookup. */
    private static MethodHandle find(Class<?> c, String name, MethodType mt, boolean isStatic)
            throws ReflectiveOperationException {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        try {
            return isStatic ? l.findStatic(c, name, mt) : l.findVirtual(c, name, mt);
        } catch (IllegalAccessException e) {
            // The unnamed module an application class is in opens every package.
            l = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
            return isStatic ? l.findStatic(c, name, mt) : l.findVirtual(c, name, mt);
        }
    }

    /**
     * mh taking the dispatcher's arguments (roles, as link reads them) and
     * returning type's return type. The roles are adapted from the last,
     * so that a 'P' taking two arguments leaves the earlier positions as
     * they are. asType would cast any reference to any other, so the
     * adapters' types are checked here: a wrong role fails to link rather
     * than throw ClassCastException at each call.
     */
    static MethodHandle adapt(MethodHandle mh, String roles, MethodType type) {
        for (int i = roles.length() - 1; i >= 0; i--) {
            MethodHandle f = adapter(roles.charAt(i));
            if (f == null) {
                continue;
            }
            Class<?> p = mh.type().parameterType(i);
            Class<?> v = f.type().returnType();
            if (!p.isAssignableFrom(v)) {
                throw new IllegalArgumentException("parameter " + (i + 1) + " is a " + p.getName() + ", not a " + v.getName());
            }
            f = f.asType(f.type().changeReturnType(p));
            mh = roles.charAt(i) == 'P' ? MethodHandles.collectArguments(mh, i, f)
                    : MethodHandles.filterArguments(mh, i, f);
        }
        MethodType got = mh.type();
        if (got.parameterCount() != type.parameterCount()) {
            throw new IllegalArgumentException("the advice takes " + got.parameterCount() + " arguments, the dispatcher passes "
                    + type.parameterCount());
        }
        for (int i = 0, j = 0; i < roles.length(); i++) {
            int n = roles.charAt(i) == 'P' ? 2 : 1;
            for (int k = j; k < j + n && roles.charAt(i) != 'f' && roles.charAt(i) != 'i'; k++) {
                if (got.parameterType(k) != type.parameterType(k)) {
                    throw new IllegalArgumentException("the dispatcher passes a " + type.parameterType(k).getName()
                            + " where role " + roles.charAt(i) + " takes a " + got.parameterType(k).getName());
                }
            }
            j += n;
        }
        Class<?> r = type.returnType();
        if (r.isPrimitive() && r != void.class && !got.returnType().isPrimitive()) {
            mh = MethodHandles.filterReturnValue(mh.asType(got.changeReturnType(Object.class)), unbox(r));
        }
        return mh.asType(type);
    }

    /** The adapter of a role's dispatcher arguments, null for a formal ('f'). */
    private static MethodHandle adapter(char role) {
        switch (role) {
            case 'f':
            case 'i': return null;
            case 'J': return JP;
            case 'P': return PJP;
            case 'S': return SP;
            case 'E': return ESP;
        }
        throw new IllegalArgumentException("unknown role '" + role + "'");
    }

    /** weft.rt.Conversions' unboxing to r, AspectJ's: null is 0, any Number any numeric type. */
    private static MethodHandle unbox(Class<?> r) {
        try {
            return MethodHandles.publicLookup().findStatic(Conversions.class, r.getName() + "Value",
                    MethodType.methodType(r, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Prints s on standard error unless it was printed before. */
    static void warnOnce(String s) {
        synchronized (WARNED) {
            if (!WARNED.add(s)) {
                return;
            }
        }
        System.err.println(s);
    }
}
