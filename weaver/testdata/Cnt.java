package adv;

import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import weft.rt.JoinPointStaticPart;

public class Cnt {
    static final ConcurrentHashMap<Integer, AtomicIntegerArray> counts = new ConcurrentHashMap<>();
    static final ConcurrentHashMap<Integer, String> names = new ConcurrentHashMap<>();
    static final Set<String> seen = ConcurrentHashMap.newKeySet();
    static final Set<String> threads = ConcurrentHashMap.newKeySet();

    static void rec(int slot, String adv, int id, JoinPointStaticPart jp) {
        if (jp.getId() != id) throw new AssertionError("id mismatch " + id + " " + jp);
        counts.computeIfAbsent(id, k -> new AtomicIntegerArray(4)).incrementAndGet(slot);
        names.put(id, jp.toString());
        seen.add(jp.getKind() + "/" + adv);
        if (jp.getName().equals("fib")) threads.add(Thread.currentThread().getName());
    }

    public static void before(int id, JoinPointStaticPart jp) { rec(0, "before", id, jp); }
    public static void returned(int id, JoinPointStaticPart jp) { rec(1, "afterReturning", id, jp); }
    public static void thrown(Throwable t, int id, JoinPointStaticPart jp) {
        if (t == null) throw new AssertionError("null throwable");
        rec(2, "afterThrowing", id, jp);
    }
    public static void after(int id, JoinPointStaticPart jp) { rec(3, "after", id, jp); }

    public static void val(Object v, JoinPointStaticPart jp) {
        String s = v instanceof Object[] || v instanceof int[][] ? v.getClass().getSimpleName() : String.valueOf(v);
        if (v != null && v.getClass().getName().equals("app.Square")) s = "app.Square";
        System.out.println("@val " + jp.getName() + " " + s);
    }
    public static void dims(int[] d) { System.out.println("@dims " + Arrays.toString(d)); }

    public static void report() {
        int bad = 0;
        for (Map.Entry<Integer, AtomicIntegerArray> e : counts.entrySet()) {
            AtomicIntegerArray c = e.getValue();
            if (c.get(1) + c.get(2) + c.get(3) == 0) continue; // before advice only
            if (c.get(0) != c.get(3) || c.get(1) + c.get(2) != c.get(3)) {
                bad++;
                System.out.println("@bad " + names.get(e.getKey()) + " " + c);
            }
        }
        System.out.println("@shadows " + (counts.size() > 50) + " bad " + bad);
        System.out.println("@seen " + new TreeSet<>(seen));
        System.out.println("@threads " + (threads.size() > 2));
    }
}
