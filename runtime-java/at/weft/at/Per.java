package weft.at;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Constructor;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import weft.rt.JoinPointStaticPart;

/**
 * The instances of an @AspectJ aspect with a per-clause, as its generated
 * dispatcher keeps them: perthis and pertarget an instance per object (held
 * weakly, by identity, as AspectJ's field in the object would), percflow and
 * percflowbelow a stack of instances per thread (one per entry into the
 * flow), pertypewithin an instance per type (by name). Each instance is made
 * with the aspect's no-argument constructor; advice with no instance does
 * not run, as under AspectJ.
 */
public final class Per {
    private final String aspect;
    private Constructor<?> constructor;
    private final WeakIdentityMap objects = new WeakIdentityMap();
    private final ThreadLocal<ArrayDeque<Object>> flows = ThreadLocal.withInitial(ArrayDeque::new);
    private final ConcurrentHashMap<String, Object> types = new ConcurrentHashMap<>();

    public Per(String aspect) {
        this.aspect = aspect;
        Link.PERS.put(aspect, this);
    }

    /**
     * The instance org.aspectj.lang.Aspects asks for: of the object key,
     * of the class key (its name), or, key null, of the current control
     * flow; null if none.
     */
    Object instanceFor(Object key) {
        if (key == null) {
            return top();
        }
        if (key instanceof Class && !types.isEmpty()) {
            return types.get(((Class<?>) key).getName());
        }
        return of(key);
    }

    /** Gives key an instance unless it has one (perthis, pertarget). */
    public void bind(Object key) {
        if (key != null && objects.get(key) == null) {
            Object a = make();
            if (a != null) {
                objects.putIfAbsent(key, a);
            }
        }
    }

    /** key's instance, null if none. */
    public Object of(Object key) {
        return key == null ? null : objects.get(key);
    }

    /** Starts a control flow's instance (percflow, percflowbelow). */
    public void push() {
        Object a = make();
        flows.get().push(a == null ? NONE : a);
    }

    /** Ends the innermost control flow's instance. */
    public void pop() {
        flows.get().poll();
    }

    /** The innermost control flow's instance, null if none. */
    public Object top() {
        Object a = flows.get().peek();
        return a == NONE ? null : a;
    }

    /** The instance of the type the join point is within (pertypewithin), made on first use. */
    public Object ofType(JoinPointStaticPart sp) {
        String type = sp.getWithinTypeName();
        Object a = types.get(type);
        if (a == null) {
            Object made = make();
            if (made == null) {
                return null;
            }
            a = types.putIfAbsent(type, made);
            if (a == null) {
                a = made;
            }
        }
        return a;
    }

    /** A stack entry for a flow whose instance could not be made. */
    private static final Object NONE = new Object();

    /** A new instance, null (warned of once) if it cannot be made. */
    private Object make() {
        try {
            Constructor<?> k;
            synchronized (this) {
                if (constructor == null) {
                    Class<?> c = Link.aspectClass(aspect);
                    k = c.getDeclaredConstructor();
                    k.setAccessible(true);
                    constructor = k;
                }
                k = constructor;
            }
            return k.newInstance();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            Link.warnOnce("weft: warning: @AspectJ aspect " + aspect + ": cannot make an instance (" + e + "); its advice does not run there");
            return null;
        }
    }

    /**
     * A map from objects, held weakly and compared by identity, to values:
     * the JDK has weak maps by equality (WeakHashMap) and identity maps
     * holding their keys, not both.
     */
    static final class WeakIdentityMap {
        private static final class Entry extends WeakReference<Object> {
            final int hash;
            final Object value;
            Entry next;

            Entry(Object key, int hash, Object value, Entry next, ReferenceQueue<Object> q) {
                super(key, q);
                this.hash = hash;
                this.value = value;
                this.next = next;
            }
        }

        private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
        private Entry[] table = new Entry[16];
        private int size;

        synchronized Object get(Object key) {
            int h = System.identityHashCode(key);
            for (Entry e = table[h & (table.length - 1)]; e != null; e = e.next) {
                if (e.hash == h && e.get() == key) {
                    return e.value;
                }
            }
            return null;
        }

        synchronized void putIfAbsent(Object key, Object value) {
            expunge();
            if (get(key) != null) {
                return;
            }
            if (size >= table.length * 3 / 4) {
                resize();
            }
            int h = System.identityHashCode(key);
            int i = h & (table.length - 1);
            table[i] = new Entry(key, h, value, table[i], queue);
            size++;
        }

        synchronized int size() {
            expunge();
            return size;
        }

        private void resize() {
            Entry[] old = table;
            table = new Entry[old.length * 2];
            for (Entry head : old) {
                for (Entry e = head; e != null;) {
                    Entry next = e.next;
                    int i = e.hash & (table.length - 1);
                    e.next = table[i];
                    table[i] = e;
                    e = next;
                }
            }
        }

        /** Drops the entries whose keys were collected. */
        private void expunge() {
            for (Object r; (r = queue.poll()) != null;) {
                Entry dead = (Entry) r;
                int i = dead.hash & (table.length - 1);
                Entry prev = null;
                for (Entry e = table[i]; e != null; prev = e, e = e.next) {
                    if (e == dead) {
                        if (prev == null) {
                            table[i] = e.next;
                        } else {
                            prev.next = e.next;
                        }
                        size--;
                        break;
                    }
                }
            }
        }
    }
}
