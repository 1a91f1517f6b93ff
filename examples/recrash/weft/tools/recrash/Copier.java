package weft.tools.recrash;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.IdentityHashMap;

/**
 * The copies of receivers and arguments taken when a method is entered,
 * so that a crash's state is the state the method started from.
 *
 * <p>Depth 0 (the default, "shallow"): objects are kept by reference; an
 * array of at most maxElements elements is cloned (its elements are
 * not). Depth n &gt; 0: objects are copied field by field n levels deep
 * (their fields' objects n-1 levels...), arrays likewise, at most
 * maxObjects objects per call; past that, and for what is never copied
 * ({@link Fields#uncapturable}), the reference is kept. Strings, boxes,
 * enums and classes are immutable and always shared.
 */
final class Copier {
    final int depth, maxElements, maxObjects;

    Copier(int depth, int maxElements, int maxObjects) {
        this.depth = depth;
        this.maxElements = maxElements;
        this.maxObjects = maxObjects;
    }

    /**
     * Copies a call's arguments in place (the array is the frame's own)
     * and returns its receiver's copy: one copy of what they share.
     */
    Object copy(Object self, Object[] args) {
        if (depth == 0) {
            for (int i = 0; i < args.length; i++) args[i] = shallow(args[i]);
            return self;
        }
        Deep d = new Deep();
        for (int i = 0; i < args.length; i++) args[i] = d.copy(args[i], depth);
        return d.copy(self, depth);
    }

    /** An argument's shallow copy: an array of at most maxElements elements cloned, anything else itself. */
    Object shallow(Object v) {
        return v != null && v.getClass().isArray() && Array.getLength(v) <= maxElements ? cloneArray(v) : v;
    }

    private static Object cloneArray(Object a) {
        int n = Array.getLength(a);
        Object c = Array.newInstance(a.getClass().getComponentType(), n);
        System.arraycopy(a, 0, c, 0, n);
        return c;
    }

    static boolean immutable(Object o) {
        return o instanceof String || o instanceof Number && o.getClass().getName().startsWith("java.lang.")
                || o instanceof Boolean || o instanceof Character || o instanceof Class || o instanceof Enum;
    }

    /** One call's deep copy: objects met twice are copied once. */
    private final class Deep {
        final IdentityHashMap<Object, Object> copies = new IdentityHashMap<>();
        int budget = maxObjects;

        Object copy(Object o, int level) {
            if (o == null || level == 0 || immutable(o) || budget <= 0) return o;
            Object done = copies.get(o);
            if (done != null) return done;
            Class<?> c = o.getClass();
            if (c.isArray()) {
                int n = Array.getLength(o);
                if (n > maxElements) return o;
                budget--;
                Object a = cloneArray(o);
                copies.put(o, a);
                if (!c.getComponentType().isPrimitive()) {
                    Object[] e = (Object[]) a;
                    for (int i = 0; i < n; i++) e[i] = copy(e[i], level - 1);
                }
                return a;
            }
            if (Fields.uncapturable(c) != null) return o;
            Field[] fs = Fields.of(c);
            if (fs == null) return o;
            Object n;
            try {
                n = Fields.allocate(c);
            } catch (InstantiationException e) {
                return o;
            }
            budget--;
            copies.put(o, n);
            for (int i = 0; i < fs.length; i++) {
                Object v = Fields.get(o, i);
                Fields.set(n, i, fs[i].getType().isPrimitive() ? v : copy(v, level - 1));
            }
            return n;
        }
    }
}
