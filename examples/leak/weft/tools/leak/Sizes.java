package weft.tools.leak;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Shallow sizes of objects as the running JVM lays them out: an object's
 * is the end of its last field (sun.misc.Unsafe.objectFieldOffset, the
 * JVM's own offsets) rounded up to 8 bytes, an array's its base offset
 * plus length times index scale, rounded alike. Instrumentation's
 * getObjectSize would need a Java agent; Unsafe is what the JVM lets
 * advice on the boot class path use. Where Unsafe refuses a class (hidden
 * classes and records), the size is estimated from the fields' types.
 */
final class Sizes {
    private Sizes() {}

    private static final sun.misc.Unsafe U = unsafe();
    /** The object header: an int array's base offset less its length field. */
    private static final long HEADER = U == null ? 12 : U.arrayBaseOffset(int[].class) - 4;
    private static final long REF = U == null ? 4 : U.arrayIndexScale(Object[].class);
    private static final long ALIGN = 8; // the default ObjectAlignmentInBytes

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The shallow size of an array. */
    static long array(Object a) {
        Class<?> c = a.getClass();
        long base = U == null ? HEADER + 4 : U.arrayBaseOffset(c);
        long scale = U == null ? scale(c.getComponentType()) : U.arrayIndexScale(c);
        return align(base + scale * Array.getLength(a));
    }

    /** The shallow size of the instances of class c. */
    static long object(Class<?> c) {
        long end = HEADER;
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Field[] fs;
            try {
                fs = k.getDeclaredFields();
            } catch (RuntimeException | LinkageError e) {
                continue;
            }
            for (Field f : fs) {
                if (Modifier.isStatic(f.getModifiers())) continue;
                long size = scale(f.getType()), offset;
                try {
                    offset = U.objectFieldOffset(f);
                } catch (RuntimeException | LinkageError e) { // hidden class, record, or no Unsafe
                    offset = end;
                }
                end = Math.max(end, offset + size);
            }
        }
        return align(end);
    }

    private static long scale(Class<?> t) {
        if (!t.isPrimitive()) return REF;
        if (t == long.class || t == double.class) return 8;
        if (t == int.class || t == float.class) return 4;
        if (t == short.class || t == char.class) return 2;
        return 1;
    }

    private static long align(long n) {
        return (n + ALIGN - 1) & -ALIGN;
    }
}
