package weft.rt;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
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

    /** The socket, or null: load-time weaving is off. */
    private static final String PATH = System.getProperty("weft.ltw");
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

    /** Request kinds beyond LTW's: the answer to a query. */
    private static final int ANSWER = 3;
    /** Response statuses. */
    private static final int WOVEN = 1, QUERY = 3;

    /**
     * A connection and its buffer, direct so the channel reads and writes
     * it without a copy: a request is assembled in it and written at once,
     * a response read into it in as few reads as the kernel allows (one,
     * usually), then copied out.
     */
    private static final class Conn {
        final SocketChannel ch;
        ByteBuffer buf = ByteBuffer.allocateDirect(INITIAL);

        Conn(SocketChannel ch) {
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

    static Object[] weave(ClassLoader loader, int kind, String name, byte[] b, int off, int len) {
        if (PATH == null || broken || name != null && name.endsWith(SISTER)) {
            return null;
        }
        Conn c = null;
        try {
            c = take();
            send(c, kind, name, b, off, len);
            Object[] r = receive(c, loader);
            give(c);
            return r;
        } catch (Throwable e) {
            close(c);
            fail(name, e);
            return null;
        }
    }

    static void rejected(String name, Throwable e) {
        System.err.println("weft: load-time weaving: the JVM refused the woven " + name + " (" + e
                + "): defined unwoven");
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
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(PATH));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new Conn(ch);
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
            try {
                c.ch.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    /**
     * Request: u32 length, u8 kind, u16 name length, name (UTF-8), class
     * bytes; one write.
     */
    private static void send(Conn c, int kind, String name, byte[] b, int off, int len) throws IOException {
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
        ByteBuffer out = c.buffer(4 + 1 + 2 + n + len);
        out.putInt(1 + 2 + n + len).put((byte) kind).putShort((short) n);
        if (utf8 != null) {
            out.put(utf8);
        } else {
            for (int i = 0; i < n; i++) {
                out.put((byte) name.charAt(i));
            }
        }
        out.put(b, off, len).flip();
        while (out.hasRemaining()) {
            c.ch.write(out);
        }
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
            r = readFrame(c);
            status = r.get();
            if (status != QUERY) {
                break;
            }
            byte[] q = new byte[r.getShort() & 0xffff];
            r.get(q);
            String name = new String(q, StandardCharsets.UTF_8);
            byte[] b = resource(loader, name);
            send(c, ANSWER, name, b, 0, b.length);
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
    private static ByteBuffer readFrame(Conn c) throws IOException {
        ByteBuffer r = c.buffer(INITIAL);
        while (r.position() < 4) {
            read(c, r);
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
            read(c, r);
        }
        return r.position(4);
    }

    private static void read(Conn c, ByteBuffer b) throws IOException {
        if (c.ch.read(b) < 0) {
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
