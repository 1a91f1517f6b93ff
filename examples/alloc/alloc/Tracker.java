package alloc;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import weft.rt.JoinPointStaticPart;

/**
 * Advice of alloc.weft: counts allocations per type and per site and keeps
 * a weak reference to each tracked object, so at exit it can tell how many
 * were collected. Every method here runs inside advice (the bypass flag is
 * set), so the allocations it makes itself are not reported back to it.
 *
 * <p>The class has no static initializer: its state is made on first use,
 * inside advice.
 */
public final class Tracker {
    private Tracker() {}

    /** At most this many objects are tracked by weak reference at once. */
    static final int MAX_TRACKED = 1 << 20;

    private static volatile State state;

    static final class Ref extends WeakReference<Object> {
        Ref(Object o, ReferenceQueue<Object> q) {
            super(o, q);
        }
    }

    static final class State {
        final Map<String, LongAdder> byType = new ConcurrentHashMap<>();
        final Map<String, LongAdder> bySite = new ConcurrentHashMap<>();
        final ReferenceQueue<Object> queue = new ReferenceQueue<>();
        final Set<Ref> tracked = ConcurrentHashMap.newKeySet();
        final LongAdder total = new LongAdder();
        final AtomicLong collected = new AtomicLong();
        final AtomicLong untracked = new AtomicLong();
    }

    private static State state() {
        State s = state;
        if (s == null) {
            synchronized (Tracker.class) {
                s = state;
                if (s == null) {
                    s = new State();
                    State fin = s;
                    // Made inside advice: the hook thread inherits the bypass.
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> report(fin), "alloc-report"));
                    state = s;
                }
            }
        }
        return s;
    }

    /** After an object or array allocation: o is the new object. */
    public static void onNew(Object o, JoinPointStaticPart jp) {
        if (o == null) {
            return;
        }
        State s = state();
        s.total.increment();
        s.byType.computeIfAbsent(o.getClass().getTypeName(), k -> new LongAdder()).increment();
        s.bySite.computeIfAbsent(jp.getWithinTypeName() + "(" + jp.getSourceLocation() + ")", k -> new LongAdder()).increment();
        Object r;
        while ((r = s.queue.poll()) != null) {
            if (s.tracked.remove(r)) {
                s.collected.incrementAndGet();
            }
        }
        if (s.tracked.size() < MAX_TRACKED) {
            s.tracked.add(new Ref(o, s.queue));
        } else {
            s.untracked.incrementAndGet();
        }
    }

    static void report(State s) {
        long live = 0;
        for (Ref r : s.tracked) {
            if (r.get() != null) {
                live++;
            }
        }
        System.err.printf("alloc: %d allocations of %d types at %d sites; of those tracked, %d collected, %d still reachable%n",
                s.total.sum(), s.byType.size(), s.bySite.size(), s.collected.get() + (s.tracked.size() - live), live);
        System.err.println("alloc: top types:");
        top(s.byType, 12);
        System.err.println("alloc: top sites:");
        top(s.bySite, 8);
    }

    private static void top(Map<String, LongAdder> m, int n) {
        List<Map.Entry<String, LongAdder>> l = new ArrayList<>(m.entrySet());
        l.sort((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()));
        for (int i = 0; i < Math.min(n, l.size()); i++) {
            System.err.printf("  %10d  %s%n", l.get(i).getValue().sum(), l.get(i).getKey());
        }
    }
}
