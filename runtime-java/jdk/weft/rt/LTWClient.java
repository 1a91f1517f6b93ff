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
    private static final SocketChannel[] POOL = new SocketChannel[16];
    private static int pooled;
    /** Set when the channel failed: from then on classes are defined unwoven. */
    private static volatile boolean broken;

    private static final int MAX_RESPONSE = 1 << 28;

    /** Request kinds beyond LTW's: the answer to a query. */
    private static final int ANSWER = 3;
    /** Response statuses. */
    private static final int WOVEN = 1, QUERY = 3;

    static Object[] weave(ClassLoader loader, int kind, String name, byte[] b, int off, int len) {
        if (PATH == null || broken) {
            return null;
        }
        SocketChannel ch = null;
        try {
            ch = take();
            send(ch, kind, name, b, off, len);
            Object[] r = receive(ch, loader);
            give(ch);
            return r;
        } catch (Throwable e) {
            close(ch);
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
            }
        }
        System.err.println("weft: load-time weaving stopped at " + name + " (" + e
                + "): classes defined from now on are left unwoven");
    }

    private static SocketChannel take() throws IOException {
        synchronized (POOL) {
            if (pooled > 0) {
                SocketChannel ch = POOL[--pooled];
                POOL[pooled] = null;
                return ch;
            }
        }
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(PATH));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    private static void give(SocketChannel ch) {
        synchronized (POOL) {
            if (!broken && pooled < POOL.length) {
                POOL[pooled++] = ch;
                return;
            }
        }
        close(ch);
    }

    private static void close(SocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    /** Request: u32 length, u8 kind, u16 name length, name (UTF-8), class bytes. */
    private static void send(SocketChannel ch, int kind, String name, byte[] b, int off, int len) throws IOException {
        byte[] n = name == null ? new byte[0] : name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 0xffff) {
            n = new byte[0];
        }
        ByteBuffer head = ByteBuffer.allocate(4 + 1 + 2 + n.length);
        head.putInt(1 + 2 + n.length + len).put((byte) kind).putShort((short) n.length).put(n).flip();
        ByteBuffer body = ByteBuffer.wrap(b, off, len);
        ByteBuffer[] bufs = {head, body};
        while (head.hasRemaining() || body.hasRemaining()) {
            ch.write(bufs);
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
    private static Object[] receive(SocketChannel ch, ClassLoader loader) throws IOException {
        ByteBuffer r;
        int status;
        while (true) {
            ByteBuffer len = ByteBuffer.allocate(4);
            readFully(ch, len);
            int n = len.getInt(0);
            if (n < 1 || n > MAX_RESPONSE) {
                throw new IOException("bad response length " + n);
            }
            r = ByteBuffer.allocate(n);
            readFully(ch, r);
            r.flip();
            status = r.get();
            if (status != QUERY) {
                break;
            }
            byte[] q = new byte[r.getShort() & 0xffff];
            r.get(q);
            String name = new String(q, StandardCharsets.UTF_8);
            byte[] b = resource(loader, name);
            send(ch, ANSWER, name, b, 0, b.length);
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

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("weft closed the channel");
            }
        }
    }
}
