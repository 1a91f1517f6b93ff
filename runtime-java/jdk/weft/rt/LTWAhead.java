package weft.rt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;

/**
 * Answers woven ahead (weaver/ltw/ahead.go): when the JVM defines a class
 * from a jar, weft weaves the jar's other classes while it waits for the
 * next request and sends their answers with its next response. They are
 * kept here, by class name, and a class defined later is answered from
 * its entry with no round trip if its request key (LTWCache.key: the kind,
 * name and bytes) is the entry's: the bytes defined are the bytes weft
 * wove. Each answer used is reported to weft by number (LTWCache.hit), so
 * weft's counts and --weave-info stay exact; an entry is used once (a
 * second definition of the class asks weft).
 */
final class LTWAhead {
    private LTWAhead() {}

    /** An answer woven ahead: its request key, number and payload (status first). */
    private static final class Entry {
        final byte[] key;
        final int number;
        final byte[] answer;

        Entry(byte[] key, int number, byte[] answer) {
            this.key = key;
            this.number = number;
            this.answer = answer;
        }
    }

    /** Entries by binary name; guarded by itself. */
    private static final HashMap<String, Entry> TABLE = new HashMap<>();
    /** TABLE's size: a lookup takes no lock while there is none. */
    private static volatile int size;
    /** A Hits number of a woven class (weaver/ltw HitWoven). */
    private static final int WOVEN = 1 << 31;
    /** An entry's fixed fields: u16 name length, key, u32 number, u32 answer length. */
    private static final int FIXED = 2 + 32 + 4 + 4;

    /**
     * Runs each path add and answer take once (LTWCache.load, with the
     * index), so that no class is loaded while a class is being defined.
     */
    static void prepare() {
        synchronized (TABLE) {
            TABLE.put("", new Entry(new byte[32], 0, new byte[0]));
            TABLE.get("");
            TABLE.remove("");
        }
        new String(new byte[] {'a'}, StandardCharsets.UTF_8);
    }

    /**
     * Reads the answers woven ahead of a response (r after its status
     * byte, StatusAhead): u32 count, count × (u16 n, binary name, key[32],
     * u32 number, u32 m, answer[m]); leaves r at the response proper.
     * Every length is checked against what is left before it is allocated.
     */
    static void add(ByteBuffer r) throws IOException {
        int n = r.getInt();
        if (n < 0 || n > r.remaining() / FIXED) {
            throw new IOException("bad count of answers woven ahead: " + n);
        }
        for (int i = 0; i < n; i++) {
            int nl = r.getShort() & 0xffff;
            if (nl > r.remaining() - (FIXED - 2)) {
                throw new IOException("bad name length woven ahead: " + nl);
            }
            byte[] name = new byte[nl];
            r.get(name);
            byte[] key = new byte[32];
            r.get(key);
            int number = r.getInt();
            int m = r.getInt();
            if (m < 0 || m > r.remaining()) {
                throw new IOException("bad answer length woven ahead: " + m);
            }
            byte[] answer = new byte[m];
            r.get(answer);
            Entry e = new Entry(key, number, answer);
            synchronized (TABLE) {
                TABLE.put(new String(name, StandardCharsets.UTF_8), e);
                size = TABLE.size();
            }
        }
    }

    /**
     * The answer woven ahead for a class about to be defined: null (define
     * the original), {woven, sister name or null, sister bytes}, or
     * LTWCache.MISS. Never throws.
     */
    static Object answer(int kind, String name, byte[] b, int off, int len) {
        if (size == 0 || kind != LTW.NORMAL || name == null) {
            return LTWCache.MISS;
        }
        try {
            Entry e;
            synchronized (TABLE) {
                e = TABLE.get(name);
            }
            if (e == null) {
                return LTWCache.MISS;
            }
            byte[] k = new byte[32];
            LTWCache.key(kind, name, b, off, len, k);
            if (!Arrays.equals(k, e.key)) {
                return LTWCache.MISS; // other bytes under that name: weft answers them
            }
            synchronized (TABLE) {
                if (TABLE.get(name) != e) {
                    return LTWCache.MISS; // another thread used it
                }
                TABLE.remove(name);
                size = TABLE.size();
            }
            Object a = LTWCache.answer(e.answer, 0, e.answer.length);
            if (a != LTWCache.MISS) {
                LTWCache.hit(a == null ? e.number : e.number | WOVEN);
            }
            return a;
        } catch (Throwable t) {
            return LTWCache.MISS;
        }
    }
}
