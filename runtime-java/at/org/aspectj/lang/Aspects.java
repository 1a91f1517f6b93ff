package org.aspectj.lang;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * AspectJ's Aspects, as weft runs @AspectJ aspects: weft's copy of it goes
 * on the boot class path before aspectjrt. AspectJ's weaver gives each
 * aspect class static aspectOf() and hasAspect() methods, which AspectJ's
 * Aspects calls by reflection; weft leaves the aspect classes as javac wrote
 * them and keeps their instances in weft.at (Link's singletons, Per's
 * instances), which this class asks first. An aspect weft does not run
 * (one AspectJ wove) is asked by reflection, as AspectJ's Aspects does.
 */
public class Aspects {
    public Aspects() {}

    /** The singleton or percflow aspect's instance. */
    public static <T> T aspectOf(Class<T> aspectClass) throws NoAspectBoundException {
        Object a = weft.at.Link.instanceOf(aspectClass, null);
        if (a != null) {
            return aspectClass.cast(a);
        }
        return aspectClass.cast(reflect(aspectClass, "aspectOf", new Class<?>[0]));
    }

    /** The perthis or pertarget aspect's instance of perObject. */
    public static <T> T aspectOf(Class<T> aspectClass, Object perObject) throws NoAspectBoundException {
        Object a = weft.at.Link.instanceOf(aspectClass, perObject);
        if (a != null) {
            return aspectClass.cast(a);
        }
        return aspectClass.cast(reflect(aspectClass, "aspectOf", new Class<?>[] {Object.class}, perObject));
    }

    /** The pertypewithin aspect's instance of perTypeWithin. */
    public static <T> T aspectOf(Class<T> aspectClass, Class<?> perTypeWithin) throws NoAspectBoundException {
        Object a = weft.at.Link.instanceOf(aspectClass, perTypeWithin);
        if (a != null) {
            return aspectClass.cast(a);
        }
        return aspectClass.cast(reflect(aspectClass, "aspectOf", new Class<?>[] {Class.class}, perTypeWithin));
    }

    public static boolean hasAspect(Class<?> aspectClass) throws NoAspectBoundException {
        return has(aspectClass, null, new Class<?>[0]);
    }

    public static boolean hasAspect(Class<?> aspectClass, Object perObject) throws NoAspectBoundException {
        return has(aspectClass, perObject, new Class<?>[] {Object.class}, perObject);
    }

    public static boolean hasAspect(Class<?> aspectClass, Class<?> perTypeWithin) throws NoAspectBoundException {
        return has(aspectClass, perTypeWithin, new Class<?>[] {Class.class}, perTypeWithin);
    }

    private static boolean has(Class<?> aspectClass, Object key, Class<?>[] params, Object... args) {
        Boolean b = weft.at.Link.hasInstance(aspectClass, key);
        if (b != null) {
            return b;
        }
        return (Boolean) reflect(aspectClass, "hasAspect", params, args);
    }

    /** The aspect's own public static method name (AspectJ's weaver's), called. */
    private static Object reflect(Class<?> aspectClass, String name, Class<?>[] params, Object... args) {
        try {
            Method m = aspectClass.getDeclaredMethod(name, params);
            if (!Modifier.isStatic(m.getModifiers())) {
                throw new NoSuchMethodException(name);
            }
            return m.invoke(null, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException) {
                throw (RuntimeException) t;
            }
            throw new NoAspectBoundException(aspectClass.getName(), t);
        } catch (ReflectiveOperationException e) {
            throw new NoAspectBoundException(aspectClass.getName(), e);
        }
    }
}
