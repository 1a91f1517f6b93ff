package weft.rt;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The cross-run cache's answers, given by the JVM itself: weft sends the
 * cache's index when the JVM first connects (weaver/ltw/index.go); a class
 * it lists is answered from the cache's pack file, read here, with no round
 * trip. The answers used are reported to weft in batches (on the next round
 * trip, when BATCH are pending, and at exit), so weft's summary and
 * --weave-info stay exact. The pack files are untrusted: every length is
 * checked before it is used or allocated, and a record whose length, key or
 * checksum does not match is a miss (the round trip answers it). Every
 * class this uses is loaded when the index is, not while a class is being
 * defined.
 */
final class LTWCache {
    /** The index, or null (no connection yet, or no index). */
    private static volatile LTWCache index;

    /** A miss: ask weft. */
    static final Object MISS = new Object();

    /** A pack record's head: u32 entry length, u32 CRC-32C, key (pack.go). */
    private static final int HEAD = 8 + 32;
    /** An index entry: key, u16 pack, u64 offset, u32 entry length. */
    private static final int ENTRY = 32 + 2 + 8 + 4;
    /** The largest entry read (weaver/ltw MaxFrame). */
    private static final int MAX_ENTRY = 64 << 20;
    /** A Hits number of a woven class (weaver/ltw HitWoven). */
    private static final int WOVEN = 1 << 31;
    /** Hits pending beyond this are sent at once. */
    private static final int BATCH = 256;

    private final FileChannel[] packs; // null where a pack cannot be opened
    private final byte[] keys; // 32 bytes an entry
    private final int[] pack, len;
    private final long[] off;
    private final boolean[] used; // hidden classes' entries, answered once a run
    private final int[] table; // open addressing: entry + 1, 0 for none
    private final int mask;
    /** The digest cloned for each thread hashing at once; set when the index is loaded. */
    private static volatile MessageDigest sha;

    /** Digests not in use: MessageDigest is not thread-safe. */
    private static final MessageDigest[] DIGESTS = new MessageDigest[16];
    private static int digests;
    /** Hits not reported yet. */
    private static final int[] HITS = new int[BATCH];
    private static int hits;

    private LTWCache(FileChannel[] packs, byte[] keys, int[] pack, long[] off, int[] len) {
        this.packs = packs;
        this.keys = keys;
        this.pack = pack;
        this.off = off;
        this.len = len;
        int n = len.length;
        used = new boolean[n];
        int size = 16;
        while (size < 2 * n) {
            size <<= 1;
        }
        table = new int[size];
        mask = size - 1;
        for (int e = 0; e < n; e++) {
            int s = slot(keys, 32 * e);
            while (table[s] != 0) {
                s = (s + 1) & mask;
            }
            table[s] = e + 1;
        }
    }

    /** The index, or null. */
    static LTWCache index() {
        return index;
    }

    /**
     * Reads the index of a StatusIndex response (r at its payload) and opens
     * the packs; any fault leaves no index (every class is asked). Then it
     * runs each path a lookup takes once, so that no class is loaded later,
     * while one is being defined, and registers the report of the last hits
     * at exit.
     */
    static void load(ByteBuffer r) {
        FileChannel[] packs = null;
        try {
            int np = r.getShort() & 0xffff;
            if (np > r.remaining() / 2) {
                return;
            }
            packs = new FileChannel[np];
            for (int i = 0; i < np; i++) {
                int n = r.getShort() & 0xffff;
                if (n > r.remaining()) {
                    return;
                }
                byte[] path = new byte[n];
                r.get(path);
                try {
                    packs[i] = FileChannel.open(Path.of(new String(path, StandardCharsets.UTF_8)), StandardOpenOption.READ);
                } catch (Exception e) {
                    packs[i] = null; // its classes are asked
                }
            }
            int count = r.getInt();
            if (count < 0 || (long) count * ENTRY != r.remaining()) {
                return;
            }
            byte[] keys = new byte[32 * count];
            int[] pack = new int[count], len = new int[count];
            long[] off = new long[count];
            for (int e = 0; e < count; e++) {
                r.get(keys, 32 * e, 32);
                pack[e] = r.getShort() & 0xffff;
                off[e] = r.getLong();
                len[e] = r.getInt();
                if (pack[e] >= np || off[e] < 0) {
                    return;
                }
            }
            // The JDK's own provider: not one the program installed first,
            // whose code would then run inside the hook.
            sha = MessageDigest.getInstance("SHA-256", "SUN");
            LTWCache x = new LTWCache(packs, keys, pack, off, len);
            // Each path once: hashing, a record read and checked (CRC32C,
            // the answer's copies), the hits' report at exit. An empty
            // index (a cold cache) runs the same: what the JDK runs here
            // can spin lambdas, and a hidden class's name, part of its
            // key, numbers the lambdas spun before it in the run.
            key(0, "a", new byte[1], 0, 1, new byte[32]);
            if (count > 0) {
                x.read(0);
            }
            LTWAhead.prepare();
            Runtime.getRuntime().addShutdownHook(new Report());
            packs = null;
            index = x;
        } catch (Throwable e) {
            // no index: every class is asked
        } finally {
            if (packs != null) {
                for (FileChannel ch : packs) {
                    close(ch);
                }
            }
        }
    }

    private static void close(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (Exception ignored) {
                // a pack opened for reading
            }
        }
    }

    /**
     * The cached answer of a class about to be defined: null (define the
     * original: weft's answer was "unchanged"), {woven, sister name or
     * null, sister bytes}, or MISS. Never throws.
     */
    Object answer(int kind, String name, byte[] b, int off, int len) {
        if (this.len.length == 0) {
            return MISS; // a cold cache: nothing to hash for
        }
        try {
            byte[] k = new byte[32];
            key(kind, name, b, off, len, k);
            int e = find(k);
            if (e < 0) {
                return MISS;
            }
            if (kind % LTWClient.BRIDGED == LTW.HIDDEN) {
                synchronized (this) {
                    if (used[e]) {
                        return MISS; // defined again: a sister of its own, from weft
                    }
                    used[e] = true;
                }
            }
            Object a = read(e);
            if (a != MISS) {
                hit(a == null ? e : e | WOVEN);
            }
            return a;
        } catch (Throwable t) {
            return MISS;
        }
    }

    /**
     * The request's Cache.Key (weaver/ltw cache.go): SHA-256 of the kind
     * in decimal, NUL, the name as sent (UTF-8, "" if longer than a u16
     * allows), NUL, the class bytes.
     */
    static void key(int kind, String name, byte[] b, int off, int len, byte[] out) throws Exception {
        MessageDigest md = digest();
        byte[] n = name == null ? new byte[0] : name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 0xffff) {
            n = new byte[0];
        }
        if (kind >= 10) {
            md.update((byte) ('0' + kind / 10));
        }
        md.update((byte) ('0' + kind % 10));
        md.update((byte) 0);
        md.update(n);
        md.update((byte) 0);
        md.update(b, off, len);
        md.digest(out, 0, 32);
        give(md);
    }

    private static MessageDigest digest() throws CloneNotSupportedException {
        synchronized (DIGESTS) {
            if (digests > 0) {
                MessageDigest md = DIGESTS[--digests];
                DIGESTS[digests] = null;
                return md;
            }
        }
        MessageDigest proto = sha;
        if (proto == null) {
            throw new CloneNotSupportedException("no index loaded");
        }
        return (MessageDigest) proto.clone();
    }

    private static void give(MessageDigest md) {
        synchronized (DIGESTS) {
            if (digests < DIGESTS.length) {
                DIGESTS[digests++] = md;
            }
        }
    }

    private int slot(byte[] k, int p) {
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = h << 8 | (k[p + i] & 0xff);
        }
        return (int) (h ^ h >>> 32) & mask;
    }

    /** The entry of key k, or -1. */
    private int find(byte[] k) {
        for (int s = slot(k, 0); table[s] != 0; s = (s + 1) & mask) {
            int e = table[s] - 1;
            if (Arrays.equals(keys, 32 * e, 32 * e + 32, k, 0, 32)) {
                return e;
            }
        }
        return -1;
    }

    /**
     * Entry e's answer from its pack record: null for unchanged, the
     * woven class and its sister, or MISS if the record is not what the
     * index says (a short file, another key, a failed checksum) or its
     * answer is out of bounds.
     */
    private Object read(int e) throws Exception {
        FileChannel ch = packs[pack[e]];
        int n = len[e];
        if (ch == null || n < 5 || n > MAX_ENTRY) {
            return MISS;
        }
        byte[] rec = new byte[HEAD + n];
        ByteBuffer bb = ByteBuffer.wrap(rec);
        while (bb.hasRemaining()) {
            if (ch.read(bb, off[e] + bb.position()) <= 0) {
                return MISS;
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(rec, 8, rec.length - 8);
        if (u4(rec, 0) != n || (int) crc.getValue() != u4(rec, 4) || !Arrays.equals(rec, 8, HEAD, keys, 32 * e, 32 * e + 32)) {
            return MISS;
        }
        // entry: u32 m, a response's payload[m], the --weave-info text
        int m = u4(rec, HEAD);
        if (m < 1 || m > n - 4) {
            return MISS;
        }
        return answer(rec, HEAD + 4, HEAD + 4 + m);
    }

    /**
     * The answer in rec[p:end], a response's payload (status first):
     * null for unchanged, the woven class and its sister, or MISS if it
     * is neither or out of bounds.
     */
    static Object answer(byte[] rec, int p, int end) {
        if (p < 0 || end > rec.length || p >= end) {
            return MISS;
        }
        switch (rec[p++]) {
            case 0: // unchanged
                return p == end ? null : MISS;
            case 1: // woven
                break;
            default:
                return MISS;
        }
        int wn = p + 4 <= end ? u4(rec, p) : -1;
        if (wn < 1 || wn > end - p - 5) {
            return MISS;
        }
        p += 4;
        Object[] out = new Object[3];
        out[0] = Arrays.copyOfRange(rec, p, p + wn);
        p += wn;
        int extras = rec[p++] & 0xff;
        if (extras > 1) {
            return MISS;
        }
        if (extras == 1) {
            int nn = p + 2 <= end ? (rec[p] & 0xff) << 8 | rec[p + 1] & 0xff : -1;
            if (nn < 1 || nn > end - p - 6) {
                return MISS;
            }
            out[1] = new String(rec, p + 2, nn, StandardCharsets.UTF_8);
            p += 2 + nn;
            int sn = u4(rec, p);
            if (sn < 1 || sn > end - p - 4) {
                return MISS;
            }
            out[2] = Arrays.copyOfRange(rec, p + 4, p + 4 + sn);
            p += 4 + sn;
        }
        return p == end ? out : MISS;
    }

    private static int u4(byte[] b, int p) {
        return (b[p] & 0xff) << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | b[p + 3] & 0xff;
    }

    /** Records a hit; sends a full batch. */
    static void hit(int v) {
        int[] full = null;
        synchronized (HITS) {
            HITS[hits++] = v;
            if (hits == BATCH) {
                full = Arrays.copyOf(HITS, hits);
                hits = 0;
            }
        }
        if (full != null) {
            LTWClient.report(full);
        }
    }

    /** The hits not reported yet, taken (null if none). */
    static int[] takeHits() {
        synchronized (HITS) {
            if (hits == 0) {
                return null;
            }
            int[] h = Arrays.copyOf(HITS, hits);
            hits = 0;
            return h;
        }
    }

    /** At exit: reports the last hits (LTWScope's too, without an index). */
    static final class Report extends Thread {
        Report() {
            super("weft load-time weaving report");
        }

        @Override
        public void run() {
            Thread.currentThread().weft$dib = true;
            int[] h = takeHits();
            if (h != null) {
                LTWClient.report(h);
            }
        }
    }
}
