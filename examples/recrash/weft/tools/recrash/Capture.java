package weft.tools.recrash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a frame's receiver and arguments: Java serialization where the
 * classes allow it, a {@link Rebuilt} (class and fields) for objects whose
 * class is not Serializable, null for what is never captured
 * ({@link Fields#uncapturable}); what was rebuilt or left out is noted.
 */
final class Capture extends ObjectOutputStream {
    /** "rebuilt C" and "not captured: C (why)", once each. */
    final Set<String> notes = new TreeSet<>();

    Capture(OutputStream out) throws IOException {
        super(out);
        enableReplaceObject(true);
    }

    @Override
    protected Object replaceObject(Object o) {
        if (o == null || o instanceof Rebuilt) return o;
        Class<?> c = o.getClass();
        String why = Fields.uncapturable(c);
        if (why != null) {
            notes.add("not captured: " + c.getName() + " (" + why + ")");
            return null;
        }
        if (o instanceof Serializable || c.isArray()) return o;
        Rebuilt r = Rebuilt.of(o);
        if (r == null) {
            notes.add("not captured: " + c.getName() + " (a record or hidden class, not Serializable)");
            return null;
        }
        notes.add("rebuilt from its fields: " + c.getName());
        return r;
    }

    /**
     * The serialized form of values (one array: objects shared between the
     * receiver and the arguments stay shared); a value whose writing fails
     * is null in it, noted.
     */
    static byte[] write(Object[] values, Set<String> notes) {
        try {
            return writeAll(values, notes);
        } catch (Throwable whole) {
            Object[] some = values.clone();
            for (int i = 0; i < some.length; i++) {
                try {
                    writeAll(new Object[] {some[i]}, new TreeSet<>());
                } catch (Throwable e) {
                    notes.add("not captured: value " + i + ", a " + some[i].getClass().getName() + " (" + e + ")");
                    some[i] = null;
                }
            }
            try {
                return writeAll(some, notes);
            } catch (Throwable e) {
                notes.add("not captured: " + e);
                return null;
            }
        }
    }

    private static byte[] writeAll(Object[] values, Set<String> notes) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Capture c = new Capture(b);
        c.writeObject(values);
        c.close();
        notes.addAll(c.notes);
        return b.toByteArray();
    }
}
