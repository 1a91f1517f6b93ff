package weft.tools.recrash;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * What a crash's state holds in place of an object Java serialization
 * cannot write (its class is not Serializable): the class and every
 * instance field's value, each written in turn as serialization writes
 * fields (so a Serializable value inside is serialized, another object is
 * a Rebuilt again). Reading the state back ({@link Input}) allocates the
 * object without running a constructor and sets its fields.
 *
 * <p>Shared by the recorder and the generated tests (weft copies this file
 * next to them): both must agree on its serialized form.
 */
public final class Rebuilt implements Serializable {
    private static final long serialVersionUID = 1L;

    final String className;
    final String[] owners; // declaring class of each field
    final String[] names;
    final Object[] values; // primitives boxed

    /** The object made of this, once read; fields that referred to it before that. */
    private transient Object instance;
    private transient List<Object[]> pending;

    Rebuilt(String className, String[] owners, String[] names, Object[] values) {
        this.className = className;
        this.owners = owners;
        this.names = names;
        this.values = values;
    }

    /** Describes o by its fields; null if its fields cannot be read raw. */
    static Rebuilt of(Object o) {
        Field[] fs = Fields.of(o.getClass());
        if (fs == null) return null;
        String[] owners = new String[fs.length], names = new String[fs.length];
        Object[] values = new Object[fs.length];
        for (int i = 0; i < fs.length; i++) {
            owners[i] = fs[i].getDeclaringClass().getName();
            names[i] = fs[i].getName();
            values[i] = Fields.get(o, i);
        }
        return new Rebuilt(o.getClass().getName(), owners, names, values);
    }

    /**
     * Makes the object: allocated, then each field set by owner and name
     * (a field the class no longer has is skipped). A value that is a
     * Rebuilt still being read (a cycle) is set once that one is made.
     */
    Object make(ClassLoader loader) throws IOException {
        if (instance != null) return instance;
        try {
            Class<?> c = Class.forName(className, false, loader);
            Object o = Fields.allocate(c);
            instance = o;
            Field[] fs = Fields.of(c);
            for (int i = 0; i < names.length; i++) {
                int at = index(fs, owners[i], names[i]);
                if (at < 0) continue;
                Object v = values[i];
                if (v instanceof Rebuilt) {
                    Rebuilt r = (Rebuilt) v;
                    if (r.instance == null) {
                        if (r.pending == null) r.pending = new ArrayList<>();
                        r.pending.add(new Object[] {o, at});
                        continue;
                    }
                    v = r.instance;
                }
                Fields.set(o, at, v);
            }
            if (pending != null) {
                for (Object[] p : pending) Fields.set(p[0], (Integer) p[1], o);
                pending = null;
            }
            return o;
        } catch (ClassNotFoundException | InstantiationException e) {
            throw new IOException("cannot rebuild a " + className + ": " + e, e);
        }
    }

    private static int index(Field[] fs, String owner, String name) {
        if (fs == null) return -1;
        for (int i = 0; i < fs.length; i++) {
            if (fs[i].getName().equals(name) && fs[i].getDeclaringClass().getName().equals(owner)) return i;
        }
        return -1;
    }

    /** Reads a crash's state, making the objects Rebuilt stands for. */
    public static final class Input extends ObjectInputStream {
        private final ClassLoader loader;

        public Input(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
            enableResolveObject(true);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }

        @Override
        protected Object resolveObject(Object o) throws IOException {
            return o instanceof Rebuilt ? ((Rebuilt) o).make(loader) : o;
        }
    }
}
