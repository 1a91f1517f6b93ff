package weft.rt;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

/**
 * The static parts of join points by id: advice that takes only
 * {@code joinPointId} (one int, which a woven JDK's methods pass to one
 * helper shared by every class) finds a join point's static part here
 * when it needs it, at a report's end say, instead of being passed it at
 * every call.
 *
 * <p>Each sister class that holds static parts registers itself when it
 * initializes, which woven code's first advice call of the class does in
 * every class woven one by one. A woven JDK's classes whose advice calls
 * are all shared helpers may never initialize their sister: for them the
 * woven image lists, in {@code lib/weft/ids} (or the file the system
 * property {@code weft.ids} names), the first id of each class, its
 * module and its sister's name, and {@link #of} initializes the sister it
 * needs.
 */
public final class Parts {
    private Parts() {}

    // A sister registers itself as an IntFunction: apply(id) is the static
    // part of id, null if the class has none by that id. An interface every
    // module can see: a class's superinterfaces are checked as it is
    // defined, before load-time weaving could export weft.rt to its module
    // (a proxy's, a module layer's).

    private static final Object LOCK = new Object();
    // The registered sisters, sorted by first id: bases[i] .. bases[i] +
    // counts[i] - 1 are sources[i]'s. Plain arrays: a sister may register
    // while the JVM boots or outside any bypass, where no woven code may run.
    private static int[] bases = new int[256];
    private static int[] counts = new int[256];
    private static IntFunction<?>[] sources = new IntFunction<?>[256];
    // found[i]: the static parts of sources[i] asked for so far, by relative
    // id (made at its first), so that a part is made once however often a
    // tool asks (a report sorting its rows by frame name asks again and
    // again).
    private static JoinPointStaticPart[][] found = new JoinPointStaticPart[256][];
    private static int size;
    // The woven image's table (lib/weft/ids), read at the first id no
    // registered sister has, as bytes: a JDK has tens of thousands of
    // classes, a run asks for a few; idsRead once tried.
    private static byte[] ids;
    private static boolean idsRead;

    /** Registers the sister class holding the static parts of ids base .. base + count - 1. */
    public static void register(int base, int count, IntFunction<?> source) {
        synchronized (LOCK) {
            int i = search(bases, size, base);
            if (i >= 0) {
                sources[i] = source; // the same class defined again (a hidden class's sister is not)
                counts[i] = count;
                found[i] = null;
                return;
            }
            i = -i - 1;
            if (size == bases.length) {
                bases = grow(bases);
                counts = grow(counts);
                IntFunction<?>[] s = new IntFunction<?>[2 * size];
                System.arraycopy(sources, 0, s, 0, size);
                sources = s;
                JoinPointStaticPart[][] f = new JoinPointStaticPart[2 * size][];
                System.arraycopy(found, 0, f, 0, size);
                found = f;
            }
            System.arraycopy(bases, i, bases, i + 1, size - i);
            System.arraycopy(counts, i, counts, i + 1, size - i);
            System.arraycopy(sources, i, sources, i + 1, size - i);
            System.arraycopy(found, i, found, i + 1, size - i);
            bases[i] = base;
            counts[i] = count;
            sources[i] = source;
            found[i] = null;
            size++;
        }
    }

    /**
     * The static part of join point id, null if weft wove no such join
     * point or its class cannot be found. It may load and initialize the
     * sister class: call it from advice, or from a thread advice started
     * (both run with the thread's bypass flag set), as a report is written.
     */
    public static JoinPointStaticPart of(int id) {
        JoinPointStaticPart p = known(id);
        if (p != null) return p;
        IntFunction<?> s = registered(id);
        if (s == null) {
            initializeSister(id);
            s = registered(id);
        }
        if (s == null) return null;
        p = (JoinPointStaticPart) s.apply(id);
        if (p != null) keep(id, p);
        return p;
    }

    /** The index of the registered sister holding id, -1 if none (LOCK held). */
    private static int index(int id) {
        int i = search(bases, size, id);
        if (i < 0) i = -i - 2; // the last base below id
        return i >= 0 && id - bases[i] < counts[i] ? i : -1;
    }

    private static IntFunction<?> registered(int id) {
        synchronized (LOCK) {
            int i = index(id);
            return i < 0 ? null : sources[i];
        }
    }

    /** The static part of id made before, null if none. */
    private static JoinPointStaticPart known(int id) {
        synchronized (LOCK) {
            int i = index(id);
            return i < 0 || found[i] == null ? null : found[i][id - bases[i]];
        }
    }

    private static void keep(int id, JoinPointStaticPart p) {
        synchronized (LOCK) {
            int i = index(id);
            if (i < 0) return;
            if (found[i] == null) found[i] = new JoinPointStaticPart[counts[i]];
            found[i][id - bases[i]] = p;
        }
    }

    /** Initializes the sister class the woven image lists for id, if any. */
    private static void initializeSister(int id) {
        String[] row;
        synchronized (LOCK) {
            if (!idsRead) {
                idsRead = true;
                ids = readIds();
            }
            row = ids == null ? null : idsRow(ids, id);
        }
        if (row == null) return;
        try {
            ClassLoader loader = ModuleLayer.boot().findLoader(row[0]);
            Class.forName(row[1], true, loader);
        } catch (Throwable e) {
            // not in this run's boot layer, or not woven as listed: no part
        }
    }

    /**
     * Reads the woven image's table of classes by first id: lines "BASE
     * MODULE SISTER", in order of BASE; null if there is none (a JDK not
     * woven into an image, or an old image). Called from of, so inside a
     * bypass: the JDK's code runs unadvised.
     */
    private static byte[] readIds() {
        String path = System.getProperty("weft.ids");
        if (path == null) path = System.getProperty("java.home") + "/lib/weft/ids";
        try (FileInputStream in = new FileInputStream(path)) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The module and sister of the table's last line whose base is at most
     * id, null if none: a binary search over the lines, parsed here (the
     * table is UTF-8).
     */
    static String[] idsRow(byte[] table, int id) {
        int lo = 0, hi = table.length, row = -1; // lo starts a line; the row sought starts in [lo, hi) if after row
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int start = mid;
            while (start > lo && table[start - 1] != '\n') start--;
            int end = start;
            while (end < table.length && table[end] != '\n') end++;
            long base = 0;
            int i = start;
            for (; i < end && table[i] >= '0' && table[i] <= '9' && base <= Integer.MAX_VALUE; i++) base = 10 * base + table[i] - '0';
            if (i == start || i == end || table[i] != ' ') return null; // not a table of ids
            if (base <= id) {
                row = start;
                lo = end + 1;
            } else {
                hi = start;
            }
        }
        if (row < 0) return null;
        int module = row;
        while (table[module] != ' ') module++;
        int sister = ++module;
        while (sister < table.length && table[sister] != ' ' && table[sister] != '\n') sister++;
        int end = sister;
        while (end < table.length && table[end] != '\n') end++;
        if (sister >= end) return null;
        return new String[] {
            new String(table, module, sister - module, StandardCharsets.UTF_8),
            new String(table, sister + 1, end - sister - 1, StandardCharsets.UTF_8),
        };
    }

    /**
     * The static part of join point id, relative id rel in its class, from
     * a sister class's lines of static parts (one a line, in order of
     * relative id, its fields separated by tabs: relative id, kind,
     * declaring type, name, signature, within, file, line, modifiers),
     * null if none is rel's. A sister keeps so the static parts of the ids
     * passed to advice that no advice is passed: one string, not a method
     * each. The line is found by binary search: a tool may ask for every
     * id of a class with thousands.
     */
    public static JoinPointStaticPart decode(int id, int rel, String lines) {
        int lo = 0, hi = lines.length(); // lo starts a line; rel's is in [lo, hi) if anywhere
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int start = lines.lastIndexOf('\n', mid - 1) + 1; // the start of mid's line, at least lo
            int end = lines.indexOf('\n', start);
            if (end < 0) end = lines.length();
            int tab = lines.indexOf('\t', start);
            if (tab < 0 || tab > end) return null; // not lines of static parts
            int r = Integer.parseInt(lines, start, tab, 10);
            if (r < rel) {
                lo = end + 1;
            } else if (r > rel) {
                hi = start;
            } else {
                String[] f = lines.substring(start, end).split("\t", -1);
                if (f.length != 9) return null;
                return JoinPointStaticPart.of(id, f[1], f[2], f[3], f[4], f[5], f[6], Integer.parseInt(f[7]), Integer.parseInt(f[8]));
            }
        }
        return null;
    }

    /** Binary search of a[0..n) for key: its index, or -(insertion point) - 1. */
    private static int search(int[] a, int n, int key) {
        int lo = 0, hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) lo = mid + 1;
            else if (a[mid] > key) hi = mid - 1;
            else return mid;
        }
        return -lo - 1;
    }

    private static int[] grow(int[] a) {
        int[] b = new int[2 * a.length];
        System.arraycopy(a, 0, b, 0, a.length);
        return b;
    }
}
