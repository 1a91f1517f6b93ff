package weft.tools.recrash;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Raw access to objects' instance fields, whatever their class and module
 * (sun.misc.Unsafe: reflection cannot open java.base's classes from the
 * class path), and the rule of what is never copied or rebuilt.
 *
 * <p>Shared by the recorder (copies at entry, capture at a crash) and the
 * generated tests (rebuild): weft copies this file next to them.
 */
public final class Fields {
    private Fields() {}

    private static final sun.misc.Unsafe U;

    static {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            U = (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Map<Class<?>, Field[]> FIELDS = new ConcurrentHashMap<>();
    private static final Map<Class<?>, long[]> OFFSETS = new ConcurrentHashMap<>();
    /** Marks in FIELDS the classes whose fields cannot be read raw. */
    private static final Field[] REFUSED = new Field[0];

    /**
     * The instance fields of c and its superclasses, or null if they cannot
     * be read raw (records and hidden classes: Unsafe refuses them).
     */
    public static Field[] of(Class<?> c) {
        Field[] fs = FIELDS.get(c);
        if (fs != null) return fs == REFUSED ? null : fs;
        List<Field> l = new ArrayList<>();
        List<Long> offs = new ArrayList<>();
        try {
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) continue;
                    offs.add(U.objectFieldOffset(f));
                    l.add(f);
                }
            }
        } catch (RuntimeException e) { // UnsupportedOperationException: record, hidden class
            FIELDS.put(c, REFUSED);
            return null;
        }
        fs = l.toArray(new Field[0]);
        long[] o = new long[fs.length];
        for (int i = 0; i < o.length; i++) o[i] = offs.get(i);
        OFFSETS.put(c, o);
        FIELDS.put(c, fs);
        return fs;
    }

    /** The value of field i of of(o.getClass()) in o, primitives boxed. */
    public static Object get(Object o, int i) {
        Field f = FIELDS.get(o.getClass())[i];
        long off = OFFSETS.get(o.getClass())[i];
        Class<?> t = f.getType();
        if (!t.isPrimitive()) return U.getObject(o, off);
        if (t == int.class) return U.getInt(o, off);
        if (t == long.class) return U.getLong(o, off);
        if (t == boolean.class) return U.getBoolean(o, off);
        if (t == byte.class) return U.getByte(o, off);
        if (t == char.class) return U.getChar(o, off);
        if (t == short.class) return U.getShort(o, off);
        if (t == float.class) return U.getFloat(o, off);
        return U.getDouble(o, off);
    }

    /** Sets field i of of(o.getClass()) in o (v boxed for primitives). */
    public static void set(Object o, int i, Object v) {
        Field f = FIELDS.get(o.getClass())[i];
        long off = OFFSETS.get(o.getClass())[i];
        Class<?> t = f.getType();
        if (!t.isPrimitive()) {
            if (v != null && !t.isInstance(v)) return; // a class changed since the capture: leave it null
            U.putObject(o, off, v);
        } else if (v == null) {
            return;
        } else if (t == int.class) U.putInt(o, off, (Integer) v);
        else if (t == long.class) U.putLong(o, off, (Long) v);
        else if (t == boolean.class) U.putBoolean(o, off, (Boolean) v);
        else if (t == byte.class) U.putByte(o, off, (Byte) v);
        else if (t == char.class) U.putChar(o, off, (Character) v);
        else if (t == short.class) U.putShort(o, off, (Short) v);
        else if (t == float.class) U.putFloat(o, off, (Float) v);
        else U.putDouble(o, off, (Double) v);
    }

    /** A new instance of c, no constructor run. */
    public static Object allocate(Class<?> c) throws InstantiationException {
        return U.allocateInstance(c);
    }

    /** Copies every instance field of from into to (same class). */
    public static void copyAll(Object from, Object to) {
        Field[] fs = of(from.getClass());
        for (int i = 0; i < fs.length; i++) set(to, i, get(from, i));
    }

    /**
     * Why objects of c are never copied nor rebuilt (null: they may be).
     * These hold the JVM's or the system's resources (a thread, a class
     * loader, a native address or descriptor): a copy would point at
     * another process's, and using it could crash the JVM.
     */
    public static String uncapturable(Class<?> c) {
        if (c.getName().indexOf('/') >= 0) return "hidden class (a lambda?)";
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            switch (k.getName()) {
                case "java.lang.Thread":
                case "java.lang.ThreadGroup":
                case "java.lang.ClassLoader":
                case "java.lang.Module":
                case "java.lang.ModuleLayer":
                case "java.lang.ref.Reference":
                case "java.lang.Process":
                case "java.io.FileDescriptor":
                case "java.io.InputStream":
                case "java.io.OutputStream":
                case "java.io.Reader":
                case "java.io.Writer":
                case "java.io.RandomAccessFile":
                case "java.nio.Buffer":
                case "java.nio.channels.spi.AbstractInterruptibleChannel":
                case "java.net.Socket":
                case "java.net.ServerSocket":
                case "java.lang.invoke.MethodHandle":
                case "java.lang.invoke.MethodHandles$Lookup":
                case "java.lang.StackTraceElement":
                    return "holds the JVM's or the system's resources (" + k.getName() + ")";
            }
        }
        String n = c.getName();
        if (n.startsWith("jdk.internal.") || n.startsWith("sun.") || n.startsWith("java.lang.invoke.")) {
            return "JDK-internal";
        }
        return null;
    }
}
