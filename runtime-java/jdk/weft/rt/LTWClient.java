package weft.rt;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The JVM's end of the load-time weaving channel: connections to the Unix
 * socket named by the system property weft.ltw, pooled so threads defining
 * classes at once do not wait for each other. Every class it uses is a boot
 * class of java.base. Initialized on the first request after bootstrap,
 * with the thread's bypass flag set. The frames are those of docs/ltw.md.
 */
final class LTWClient {
    private LTWClient() {}

    /**
     * The socket, or null: load-time weaving is off. A JVM started by the
     * program weft runs inherits its environment, not its properties.
     */
    private static final String PATH = setting("weft.ltw", "WEFT_LTW");
    /** The system property named, else the environment variable. */
    static String setting(String property, String variable) {
        String v = System.getProperty(property);
        return v != null ? v : System.getenv(variable);
    }

    /** Idle connections. */
    private static final Conn[] POOL = new Conn[16];
    private static int pooled;
    /** Set when the channel failed: from then on classes are defined unwoven. */
    private static volatile boolean broken;

    private static final int MAX_RESPONSE = 1 << 28;
    /**
     * A connection's buffer starts this large and grows to hold the largest
     * frame up to KEEP; a larger frame gets a buffer of its own.
     */
    private static final int INITIAL = 64 << 10, KEEP = 4 << 20;

    /**
     * Request kinds beyond LTW's: the answer to a query; split (asks for
     * the responses on a second connection) and reply (that connection's
     * only request, naming the token split got).
     */
    private static final int ANSWER = 3, SPLIT = 4, REPLY = 5;
    /**
     * Request kinds for the cache's index (asked once, on the first
     * connection) and the report of the classes answered from it (no
     * response).
     */
    private static final int INDEX = 6, HITS = 7;
    /**
     * Request kind naming the code source (the jar) of the classes a
     * connection sends next: weft weaves the jar's other classes ahead.
     */
    private static final int SOURCE = 8;
    /**
     * Added to the kind of a class whose loader does not see weft's
     * runtime (LTWLoaders): it is woven to reach the runtime through
     * java.lang.invoke (ltw.Request.Bridged).
     */
    static final int BRIDGED = 10;
    /** The hit of a class out of the scope (ltw.HitOutOfScope). */
    static final int OUT_OF_SCOPE = (1 << 30) - 1;
    /** The hit of a class no aspect reaches (ltw.HitUnreached). */
    static final int UNREACHED = (1 << 30) - 2;
    /** Response statuses; AHEAD prefixes a response with answers woven ahead (LTWAhead). */
    private static final int WOVEN = 1, QUERY = 3, TOKEN = 4, INDEXED = 5, AHEAD = 6;
    /** Set once the index was asked for. */
    private static boolean indexAsked;

    /**
     * A connection and its buffer, direct so the channel reads and writes
     * it without a copy: a request is assembled in it and written at once,
     * a response read into it in as few reads as the kernel allows (one,
     * usually), then copied out. Requests go out on ch, responses come
     * back on back: on one socket used both ways, each side's read of the
     * other's frame woke the other side's thread, blocked in its own read,
     * for nothing (the kernel wakes a socket's readers when its sent bytes
     * are consumed), twice a round trip.
     */
    private static final class Conn {
        final Sock ch;
        Sock back;
        ByteBuffer buf = ByteBuffer.allocateDirect(INITIAL);
        /** The code source last named on ch (a SOURCE request). */
        String source;

        Conn(Sock ch) {
            this.ch = ch;
        }

        /** A buffer of at least n bytes, cleared: this connection's, grown up to KEEP. */
        ByteBuffer buffer(int n) {
            if (n <= buf.capacity()) {
                return buf.clear();
            }
            if (n <= KEEP) {
                buf = ByteBuffer.allocateDirect(Math.max(n, Math.min(2 * buf.capacity(), KEEP)));
                return buf;
            }
            return ByteBuffer.allocate(n);
        }
    }

    /**
     * The end of every sister class's name (weaver.SisterSuffix): weft
     * never weaves one, so the classes' sisters woven ahead of time are
     * defined without asking.
     */
    private static final String SISTER = "$weft$jp";

    static Object[] weave(ClassLoader loader, int kind, String name, byte[] b, int off, int len, String source) {
        if (PATH == null || broken || name != null && name.endsWith(SISTER) || wovenAlready(b, off, len)) {
            return null;
        }
        if (!LTWLoaders.seeRuntime(loader)) {
            kind += BRIDGED; // woven to reach the runtime through java.lang.invoke
        }
        int left = name == null ? 0 : LTWScope.leaves(name);
        if (left != 0) {
            LTWCache.hit(left); // counted by the server, no round trip
            return null;
        }
        Object ahead = LTWAhead.answer(kind, name, b, off, len);
        if (ahead != LTWCache.MISS) {
            return (Object[]) ahead;
        }
        LTWCache x = LTWCache.index();
        if (x != null) {
            Object a = x.answer(kind, name, b, off, len);
            if (a != LTWCache.MISS) {
                return (Object[]) a;
            }
        }
        Conn c = null;
        try {
            c = take();
            if (x == null && (x = LTWCache.index()) != null) { // this connection brought the index
                Object a = x.answer(kind, name, b, off, len);
                if (a != LTWCache.MISS) {
                    give(c);
                    return (Object[]) a;
                }
            }
            send(c, c.ch, kind, name, b, off, len, source);
            Object[] r = receive(c, loader);
            give(c);
            return r;
        } catch (Throwable e) {
            close(c);
            fail(name, e);
            return null;
        }
    }

    /** weft's guard class (rtjava.Weft), as a class file names it. */
    private static final byte[] WEFT = {'w', 'e', 'f', 't', '/', 'r', 't', '/', 'W', 'e', 'f', 't'};

    /**
     * Whether the class file's constant pool names weft's guard class: a
     * class woven ahead of time, which weft answers unchanged
     * (weaver.alreadyWoven: a CONSTANT_Class of that name), so it is not
     * sent. Anything this does not read to the end of the constant pool is
     * sent, as is every other class: it never keeps back a class weft
     * would weave.
     */
    static boolean wovenAlready(byte[] b, int off, int len) {
        try {
            int end = off + len, p = off + 10;
            if (len < 10 || p > b.length || end > b.length) {
                return false;
            }
            int count = u2(b, off + 8);
            int[] utf8 = new int[count]; // offset of each Utf8 entry, 0 for others
            int[] classes = new int[count];
            int nclasses = 0;
            for (int i = 1; i < count; i++) {
                if (p >= end) {
                    return false;
                }
                int tag = b[p] & 0xff;
                switch (tag) {
                    case 1: // Utf8
                        utf8[i] = p;
                        p += 3 + u2(b, p + 1);
                        break;
                    case 7: // Class
                        classes[nclasses++] = u2(b, p + 1);
                        p += 3;
                        break;
                    case 8: case 16: case 19: case 20: // String, MethodType, Module, Package
                        p += 3;
                        break;
                    case 15: // MethodHandle
                        p += 4;
                        break;
                    case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                        p += 5;
                        break;
                    case 5: case 6: // Long, Double: two entries
                        p += 9;
                        i++;
                        break;
                    default:
                        return false;
                }
            }
            if (p > end) {
                return false;
            }
            for (int k = 0; k < nclasses; k++) {
                int n = classes[k];
                if (n > 0 && n < count && utf8[n] != 0 && named(b, utf8[n])) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static int u2(byte[] b, int p) {
        return (b[p] & 0xff) << 8 | b[p + 1] & 0xff;
    }

    /** Whether the Utf8 entry at p is WEFT. */
    private static boolean named(byte[] b, int p) {
        if (u2(b, p + 1) != WEFT.length) {
            return false;
        }
        for (int i = 0; i < WEFT.length; i++) {
            if (b[p + 3 + i] != WEFT[i]) {
                return false;
            }
        }
        return true;
    }

    static void rejected(String name, Throwable e) {
        if (e instanceof NoClassDefFoundError && !ours(e.getMessage())) {
            // A supertype of the class's own is missing (the JVM resolves
            // only supertypes as it defines a class, and weaving changes
            // none): the original fails the same way, as on the stock JDK,
            // and the program handles it as there (Netty trying Log4j 2).
            return;
        }
        System.err.println("weft: load-time weaving: the JVM refused the woven " + name + " (" + e
                + "): defined unwoven");
    }

    /** Whether a missing class's name is weft's: its runtime's or a sister class. */
    private static boolean ours(String missing) {
        return missing == null || missing.startsWith("weft/") || missing.startsWith("weft.") || missing.endsWith(SISTER);
    }

    private static void fail(String name, Throwable e) {
        synchronized (POOL) {
            if (broken) {
                return;
            }
            broken = true;
            while (pooled > 0) {
                close(POOL[--pooled]);
                POOL[pooled] = null;
            }
        }
        System.err.println("weft: load-time weaving stopped at " + name + " (" + e
                + "): classes defined from now on are left unwoven");
    }

    private static Conn take() throws IOException {
        synchronized (POOL) {
            if (pooled > 0) {
                Conn c = POOL[--pooled];
                POOL[pooled] = null;
                return c;
            }
        }
        Conn c = new Conn(connect());
        try {
            send(c, c.ch, SPLIT, null, null, 0, 0, null);
            ByteBuffer r = readFrame(c, c.ch);
            if (r.get() != TOKEN) {
                throw new IOException("no token for a reply connection");
            }
            byte[] token = new byte[r.getShort() & 0xffff];
            r.get(token);
            c.back = connect();
            send(c, c.back, REPLY, new String(token, StandardCharsets.ISO_8859_1), null, 0, 0, null);
            boolean ask;
            synchronized (POOL) {
                ask = !indexAsked;
                indexAsked = true;
            }
            if (ask) {
                send(c, c.ch, INDEX, null, null, 0, 0, null);
                r = readFrame(c, c.back);
                if (r.get() == INDEXED) {
                    LTWCache.load(r);
                }
            }
            return c;
        } catch (IOException | RuntimeException e) {
            close(c);
            throw e;
        }
    }

    private static Sock connect() throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(PATH));
            return new Sock(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * One socket of a connection, read and written as a file: in blocking
     * system calls, whatever the thread. A SocketChannel used by a virtual
     * thread parks it until its poller, itself a virtual thread, sees the
     * socket ready; a virtual thread pinned to its carrier (defining a
     * class while the JVM links a lambda or initializes a class, as most
     * class loading is) parks the carrier instead, and with every carrier
     * parked so the poller never ran: the JVM hung (TestJDK25DefineClasses).
     * A read of the file blocks the carrier in the kernel until weft
     * answers, which needs no thread of the JVM.
     */
    private static final class Sock {
        final SocketChannel ch;
        final FileChannel in, out;

        Sock(SocketChannel ch) throws IOException {
            this.ch = ch;
            java.io.FileDescriptor fd = ((sun.nio.ch.SelChImpl) ch).getFD();
            sun.nio.ch.IOUtil.configureBlocking(fd, true); // a virtual thread's connect made it non-blocking
            in = new java.io.FileInputStream(fd).getChannel();
            out = new java.io.FileOutputStream(fd).getChannel();
            // An interrupt would close a channel, and with it the socket's
            // descriptor behind the SocketChannel's back: a thread defining
            // a class with its interrupt status set waits for the answer.
            ((sun.nio.ch.FileChannelImpl) in).setUninterruptible();
            ((sun.nio.ch.FileChannelImpl) out).setUninterruptible();
        }

        int read(ByteBuffer b) throws IOException {
            return in.read(b);
        }

        void write(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                out.write(b);
            }
        }

        void close() throws IOException {
            ch.close();
        }
    }

    private static void give(Conn c) {
        synchronized (POOL) {
            if (!broken && pooled < POOL.length) {
                POOL[pooled++] = c;
                return;
            }
        }
        close(c);
    }

    private static void close(Conn c) {
        if (c != null) {
            close(c.ch);
            close(c.back);
        }
    }

    private static void close(Sock ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    /**
     * Reports classes answered from the cache's index (LTWCache): a Hits
     * request, which gets no response. A fault loses the report (weft's
     * summary then misses those classes).
     */
    static void report(int[] hits) {
        if (PATH == null || broken) {
            return;
        }
        Conn c = null;
        try {
            c = take();
            ByteBuffer out = c.buffer(4 + 3 + 4 * hits.length);
            putHits(out, hits);
            out.flip();
            c.ch.write(out);
            give(c);
        } catch (Throwable e) {
            close(c);
        }
    }

    private static void putHits(ByteBuffer out, int[] hits) {
        out.putInt(3 + 4 * hits.length).put((byte) HITS).putShort((short) 0);
        for (int h : hits) {
            out.putInt(h);
        }
    }

    /**
     * Request: u32 length, u8 kind, u16 name length, name (UTF-8), class
     * bytes (b may be null if len is 0); one write, on ch. A class's
     * request carries, before it in the same write, the classes answered
     * from the cache's index or woven ahead not reported yet (a Hits
     * request) and, if its code source is not the one last named on this
     * connection, a Source request naming it.
     */
    private static void send(Conn c, Sock ch, int kind, String name, byte[] b, int off, int len, String source) throws IOException {
        int n = name == null ? 0 : name.length();
        byte[] utf8 = null;
        for (int i = 0; i < n && utf8 == null; i++) {
            if (name.charAt(i) >= 0x80) {
                utf8 = name.getBytes(StandardCharsets.UTF_8);
            }
        }
        if (utf8 != null) {
            n = utf8.length;
        }
        if (n > 0xffff) {
            n = 0;
            utf8 = null;
        }
        int[] hits = kind <= LTW.LOOKUP ? LTWCache.takeHits() : null;
        int h = hits == null ? 0 : 4 + 3 + 4 * hits.length;
        byte[] src = null;
        if (kind == LTW.NORMAL && source != null && !source.equals(c.source)) {
            src = source.getBytes(StandardCharsets.UTF_8);
            if (src.length > 0xffff) {
                src = null;
            } else {
                h += 4 + 3 + src.length;
            }
        }
        ByteBuffer out = c.buffer(h + 4 + 1 + 2 + n + len);
        if (hits != null) {
            putHits(out, hits);
        }
        if (src != null) {
            out.putInt(3 + src.length).put((byte) SOURCE).putShort((short) src.length).put(src);
            c.source = source;
        }
        out.putInt(1 + 2 + n + len).put((byte) kind).putShort((short) n);
        if (utf8 != null) {
            out.put(utf8);
        } else {
            for (int i = 0; i < n; i++) {
                out.put((byte) name.charAt(i));
            }
        }
        if (len > 0) {
            out.put(b, off, len);
        }
        out.flip();
        ch.write(out);
    }

    /**
     * Response: u32 length, u8 status; woven (1): u32 length and the class,
     * u8 count of extra classes, each u16 name length, binary name (UTF-8),
     * u32 length and the class. Unchanged (0) and error (2, then a message)
     * both define the original. A query (3, u16 name length, binary name)
     * asks for a class's bytes (a supertype weft has not seen) as the
     * defining loader finds them: answered, then the response follows.
     */
    private static Object[] receive(Conn c, ClassLoader loader) throws IOException {
        ByteBuffer r;
        int status;
        while (true) {
            r = readFrame(c, c.back);
            status = r.get();
            if (status == AHEAD) {
                LTWAhead.add(r);
                status = r.get();
            }
            if (status != QUERY) {
                break;
            }
            byte[] q = new byte[r.getShort() & 0xffff];
            r.get(q);
            String name = new String(q, StandardCharsets.UTF_8);
            byte[] b = resource(loader, name);
            send(c, c.ch, ANSWER, name, b, 0, b.length, null);
        }
        if (status != WOVEN) {
            return null;
        }
        byte[] woven = new byte[r.getInt()];
        r.get(woven);
        Object[] out = new Object[3];
        out[0] = woven;
        int extras = r.get() & 0xff;
        if (extras > 1) {
            throw new IOException("more than one sister class");
        }
        if (extras == 1) {
            byte[] name = new byte[r.getShort() & 0xffff];
            r.get(name);
            byte[] sister = new byte[r.getInt()];
            r.get(sister);
            out[1] = new String(name, StandardCharsets.UTF_8);
            out[2] = sister;
        }
        return out;
    }

    /**
     * Reads one frame: returns a buffer positioned at its payload and
     * limited to its end. The server sends nothing before it is asked, so
     * a read never reaches into the next frame.
     */
    private static ByteBuffer readFrame(Conn c, Sock ch) throws IOException {
        ByteBuffer r = c.buffer(INITIAL);
        while (r.position() < 4) {
            read(ch, r);
        }
        int n = r.getInt(0);
        if (n < 1 || n > MAX_RESPONSE) {
            throw new IOException("bad response length " + n);
        }
        if (r.position() > 4 + n) {
            throw new IOException("bytes after a response");
        }
        if (4 + n > r.capacity()) {
            ByteBuffer big = c.buffer(4 + n);
            if (big != r) {
                big.put(r.flip());
            }
            r = big;
        }
        r.limit(4 + n);
        while (r.hasRemaining()) {
            read(ch, r);
        }
        return r.position(4);
    }

    private static void read(Sock ch, ByteBuffer b) throws IOException {
        if (ch.read(b) < 0) {
            throw new IOException("weft closed the channel");
        }
    }

    /**
     * The bytes of class name (binary) as loader finds them, without
     * loading it: empty if it has none. The boot loader's classes are in
     * the JDK image weft reads itself.
     */
    private static byte[] resource(ClassLoader loader, String name) {
        if (loader == null) {
            return new byte[0];
        }
        try (java.io.InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (Throwable e) {
            return new byte[0]; // the class is woven without it
        }
    }
}
