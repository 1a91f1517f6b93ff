package weft.tools.profile;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import weft.rt.DIB;
import weft.rt.JoinPointStaticPart;
import weft.rt.Parts;
import weft.rt.Local;
import weft.rt.Output;

/**
 * Advice of profile.weft: one calling-context tree per thread, merged at
 * exit into folded-stack files (one per metric) that weft flame renders.
 *
 * <p>Per context: calls; with profile.bytecodes, the bytecode instructions
 * its own code ran (profile.weft's exits pass the count the weaver keeps,
 * bytecodes or preciseBytecodes); wall time; thread CPU time with
 * -Dprofile.cpu=true; the time spent waiting in the JDK's blocking calls
 * (profile.weft's waiting(): monitor wait, park, sleep, blocking reads...);
 * and,
 * per allocation site below it, objects, arrays and array elements (JP's
 * counting for multi-dimensional arrays: new int[a][b][c] allocates
 * 1 + a + a*b arrays holding a + a*b + a*b*c elements).
 *
 * <p>Time is sampled by default: every profile.interval microseconds a
 * thread of the profiler's adds the time since its last sample to each
 * running thread's current context (and, with CPU time, the thread's CPU
 * time since then), so that executions read no clock: the contexts and
 * counts stay exact, the times are as exact as the samples are many. With
 * profile.time=exact, each execution reads the clock at entry and exit
 * instead, and the profiler's own cost, calibrated at start-up, is
 * subtracted (JFluid's inner and outer overhead): exact for long
 * executions, at a clock read per entry and exit.
 *
 * <p>The hot path takes no lock and, once a context exists, allocates
 * nothing. Past -Dprofile.maxNodes contexts (default 2,000,000), new
 * contexts are folded into one "[folded]" child of their parent.
 *
 * <p>Settings (system property, else environment variable): profile.out /
 * WEFT_PROFILE_OUT, the output directory (default ./weft-profile);
 * profile.time / WEFT_PROFILE_TIME (sampled, the default; exact; false:
 * counts only); profile.interval / WEFT_PROFILE_INTERVAL (microseconds
 * between samples, 1000); profile.cpu / WEFT_PROFILE_CPU; profile.maxNodes / WEFT_PROFILE_MAX_NODES;
 * profile.period / WEFT_PROFILE_PERIOD (seconds between snapshots of the
 * merged trees, written while the program runs; 0: at exit only).
 */
public final class Profiler {
    private Profiler() {}

    /** A thread's tree and stack. */
    static final class State {
        final Full root = new Full(-2, false);
        final String thread;
        final Thread owner; // for the sampler: whether it runs, its CPU time
        long cpuSampled;    // the owner's CPU time at the sampler's last sample
        Node[] stack = new Node[64];
        long[] starts = new long[64];
        long[] cpuStarts;
        int depth;
        long waitStart; // when the blocking call under way began, 0 if none
        boolean waiting; // in a blocking call (sampled time: the sampler charges it to wait-ns)

        State(String thread, Thread owner) {
            this.thread = thread;
            this.owner = owner;
            stack[0] = root;
            if (CPU_EXACT) cpuStarts = new long[64];
        }
    }

    private static final String TIME_MODE = setting("profile.time", "WEFT_PROFILE_TIME", "sampled");
    /** Each execution reads the clock (profile.time=exact). */
    static final boolean TIME = TIME_MODE.equals("exact") || TIME_MODE.equals("true");
    /** The sampler times the threads' current contexts (profile.time=sampled, the default). */
    static final boolean SAMPLED = TIME_MODE.equals("sampled");
    /** Times are written, measured either way. */
    static final boolean TIMED = TIME || SAMPLED;
    static final long INTERVAL_NS = 1000L * Math.max(10, Long.parseLong(setting("profile.interval", "WEFT_PROFILE_INTERVAL", "1000")));
    static final boolean CPU = TIMED && Boolean.parseBoolean(setting("profile.cpu", "WEFT_PROFILE_CPU", "false"));
    /** Each execution reads its thread's CPU time (CPU time with profile.time=exact). */
    static final boolean CPU_EXACT = CPU && TIME;
    static final long PERIOD_MS = (long) (1000 * Double.parseDouble(setting("profile.period", "WEFT_PROFILE_PERIOD", "0")));
    /** Contexts count the bytecodes their executions ran (Counted): the aspect's exits pass them. */
    static final boolean BYTECODES = Boolean.parseBoolean(setting("profile.bytecodes", "WEFT_PROFILE_BYTECODES", "false"));
    static final int MAX_NODES = Integer.parseInt(setting("profile.maxNodes", "WEFT_PROFILE_MAX_NODES", "2000000"));
    static final AtomicInteger NODES = new AtomicInteger();
    /**
     * Sampled time (profile.time=sampled) of the execution contexts the
     * sampler found running, {wall, wait, cpu} ns each, under its own lock:
     * a context keeps no time of its own then, so that it stays 32 bytes
     * (Node), and the sampler finds a few thousand contexts a second where
     * a program makes a million.
     */
    private static final IdentityHashMap<Node, long[]> SAMPLED_TIMES = new IdentityHashMap<>();
    static final ConcurrentLinkedQueue<State> STATES = new ConcurrentLinkedQueue<>();
    /** The states of the threads the sampler has not yet seen ended (STATES keeps every thread's). */
    static final ConcurrentLinkedQueue<State> RUNNING = new ConcurrentLinkedQueue<>();
    static final ThreadMXBean THREADS = CPU ? ManagementFactory.getThreadMXBean() : null;
    /**
     * The join points that have a context, a bit per id under SEEN_IDS, set
     * as contexts are made, for the namer (name()). A hint: threads set
     * bits without synchronization, and an id whose bit is lost is named
     * as the profile is written, as any is without the namer.
     */
    static final int SEEN_IDS = 1 << 20;
    static final long[] SEEN = new long[SEEN_IDS / 64];
    /** The namer's pause between looks at SEEN, in ms. */
    static final long NAMER_PAUSE_MS = 100;
    // The per-thread state lives in weft.rt.Local's slot, a field of
    // java.lang.Thread in the woven JDK: a ThreadLocal here would be looked
    // up while the thread's woven code may be changing its ThreadLocal map.
    // While calibrating, the calibrating thread's slot holds the
    // calibration's state instead.
    /** Calibrated cost, in ns, per profiled execution: counted inside its own time, and in its caller's. */
    static final long INNER, OUTER;

    static {
        long[] c = calibrate();
        INNER = c[0];
        OUTER = c[1];
        // Threads of anonymous classes, not lambdas: a run's first lambda
        // spins its class through method handles, interpreted (~15 ms).
        Runtime.getRuntime().addShutdownHook(new Thread("weft-profile-writer") {
            @Override
            public void run() {
                write(true);
            }
        });
        if (PERIOD_MS > 0) {
            // Created inside advice, the thread inherits the bypass flag:
            // its work is not profiled.
            Thread t = new Thread("weft-profile-snapshots") {
                @Override
                public void run() {
                    try {
                        for (;;) {
                            Thread.sleep(PERIOD_MS);
                            write(false);
                        }
                    } catch (InterruptedException e) {
                        // the JVM is ending
                    }
                }
            };
            t.setDaemon(true);
            t.start();
        }
        Thread namer = new Thread("weft-profile-namer") {
            @Override
            public void run() {
                name();
            }
        };
        namer.setDaemon(true);
        namer.start();
        if (SAMPLED) {
            Thread t = new Thread("weft-profile-sampler") {
                @Override
                public void run() {
                    sample();
                }
            };
            t.setDaemon(true);
            t.start();
        }
    }

    /** A setting: the system property, else the environment variable, else the default. */
    private static String setting(String property, String env, String otherwise) {
        String v = System.getProperty(property);
        if (v == null) v = System.getenv(env);
        return v != null ? v : otherwise;
    }

    // The hot path (enter, exit, object, array) is written for the JIT: a
    // few field and array reads, the child's first table slot probed in
    // line; whatever is rare (a thread's first execution, a new context, a
    // collision, a deeper stack, a multi-dimensional array) is in methods
    // of its own, so that what C2 inlines into every woven method is small.

    /** Enters the context of execution join point id. */
    public static void enter(int id) {
        Object o = Local.get();
        if (!(o instanceof State)) {
            enterFirst(id);
            return;
        }
        State s = (State) o;
        int d = s.depth;
        Node p = s.stack[d];
        Node[] t = p.table;
        Node c = t[Node.slot(id, t.length)];
        if (c == null || c.id != id) c = child(p, id, false);
        c.calls++;
        if (++d == s.stack.length) grow(s);
        s.stack[d] = c; // before the depth: the sampler reads the depth, then the context
        s.depth = d;
        if (CPU_EXACT) s.cpuStarts[d] = THREADS.getCurrentThreadCpuTime();
        if (TIME) s.starts[d] = System.nanoTime();
    }

    /**
     * A leaf execution (profile.weft's leaf(): code that runs no code but
     * its own), when no time is measured: counted in its context under the
     * current one, which it neither enters nor leaves, as nothing can run
     * inside it to be counted there. Its lookup is site's, written out:
     * the profiler's methods are kept from being inlined (weft profile's
     * JVM options), so a shared one would be a call more per execution.
     */
    public static void leaf(int id) {
        Object o = Local.get();
        State s = o instanceof State ? (State) o : newState();
        Node p = s.stack[s.depth];
        Node[] t = p.table;
        Node c = t[Node.slot(id, t.length)];
        if (c == null || c.id != id) c = child(p, id, false);
        c.calls++;
    }

    /**
     * A leaf execution that ran n bytecodes, counted at its exit (leaf(int)
     * when bytecodes are not counted), its lookup written out as leaf(int)'s
     * is, for the same reason.
     */
    public static void leaf(int id, long n) {
        Object o = Local.get();
        State s = o instanceof State ? (State) o : newState();
        Node p = s.stack[s.depth];
        Node[] t = p.table;
        Node c = t[Node.slot(id, t.length)];
        if (c == null || c.id != id) c = child(p, id, false);
        c.calls++;
        ((Counted) c).bytecodes += n;
    }

    /** The thread's first execution: makes its state, then enters. */
    private static void enterFirst(int id) {
        newState();
        enter(id);
    }

    /** Leaves the innermost context (returning or throwing). */
    public static void exit() {
        long now = TIME ? System.nanoTime() : 0;
        Object o = Local.get();
        if (!(o instanceof State)) return; // an exit whose entry ran before the profiler could see it
        State s = (State) o;
        int d = s.depth;
        if (d == 0) return; // likewise
        if (TIME) {
            Full c = (Full) s.stack[d];
            c.wallNanos += now - s.starts[d];
            if (CPU_EXACT) c.cpuNanos += THREADS.getCurrentThreadCpuTime() - s.cpuStarts[d];
        }
        s.depth = d - 1; // the stack keeps its reference: contexts live as long as the tree
    }

    /** Leaves the innermost context, whose execution ran n bytecodes of its own. */
    public static void exit(long n) {
        Object o = Local.get();
        if (!(o instanceof State)) return;
        State s = (State) o;
        int d = s.depth;
        if (d == 0) return;
        ((Counted) s.stack[d]).bytecodes += n;
        if (TIME) {
            exit();
            return;
        }
        s.depth = d - 1;
    }

    /** Before a blocking call (profile.weft's waiting()): the thread starts to wait. */
    public static void waitStart() {
        if (!TIMED) return;
        Object o = Local.get();
        if (!(o instanceof State)) return;
        if (SAMPLED) {
            ((State) o).waiting = true;
        } else {
            ((State) o).waitStart = System.nanoTime();
        }
    }

    /** After the blocking call, however it ended: the wait counts in the current context. */
    public static void waitEnd() {
        if (!TIMED) return;
        Object o = Local.get();
        if (!(o instanceof State)) return;
        State s = (State) o;
        if (SAMPLED) {
            s.waiting = false;
            return;
        }
        long now = System.nanoTime();
        if (s.waitStart == 0) return; // it began before the thread's state existed
        ((Full) s.stack[s.depth]).waitNanos += now - s.waitStart;
        s.waitStart = 0;
    }

    /** Counts an object allocated at site id in the current context. */
    public static void object(int id) {
        site(id).objects++;
    }

    /** Counts an array (with every dimension given) allocated at site id. */
    public static void array(int id, int[] dims) {
        Full n = site(id);
        if (dims.length == 1) { // in line, so that the JIT can drop the woven code's int[]
            n.arrays++;
            n.elements += dims[0];
        } else {
            multi(n, dims);
        }
    }

    /** JP's counting: new int[a][b][c] is 1 + a + a*b arrays of a + a*b + a*b*c elements. */
    private static void multi(Full n, int[] dims) {
        long arrays = 0, elements = 0, level = 1;
        for (int d : dims) {
            arrays += level;   // arrays at this dimension
            level *= d;
            elements += level; // their elements
        }
        n.arrays += arrays;
        n.elements += elements;
    }

    /** The context of site id in the current context: a Full, as the [folded] context is. */
    private static Full site(int id) {
        Object o = Local.get();
        State s = o instanceof State ? (State) o : newState();
        Node p = s.stack[s.depth];
        Node[] t = p.table;
        Node c = t[Node.slot(id, t.length)];
        return (Full) (c != null && c.id == id ? c : child(p, id, true));
    }

    private static State newState() {
        Thread t = Thread.currentThread();
        State n = new State(t.getName(), t);
        STATES.add(n);
        if (SAMPLED) RUNNING.add(n);
        Local.set(n);
        return n;
    }

    /** The child of p for join point id, past the first slot, made if new. */
    private static Node child(Node p, int id, boolean site) {
        if (p.id == -1) return p; // under [folded], everything folds
        Node c = p.find(id);
        return c != null ? c : newChild(p, id, site);
    }

    private static Node newChild(Node p, int id, boolean site) {
        if (NODES.incrementAndGet() > MAX_NODES) {
            Node f = p.find(-1);
            if (f == null) {
                f = new Full(-1, false);
                p.add(f);
            }
            return f;
        }
        Node c = site || TIME ? new Full(id, site) : BYTECODES ? new Counted(id) : new Node(id);
        p.add(c);
        if (id >= 0 && id < SEEN_IDS) SEEN[id >>> 6] |= 1L << id;
        return c;
    }

    /**
     * The namer's loop: the static parts of the join points that have a
     * context (SEEN) are decoded while the program runs, on a core the
     * program mostly leaves idle, and kept (Parts), so that writing the
     * profile at exit finds them made: decoding javac's 12 k took
     * 0.2-0.27 s of its end. Bits are tested one by one: Long's methods are
     * woven, and each call from here would test the bypass flag.
     */
    private static void name() {
        long[] named = new long[SEEN.length];
        for (;;) {
            try {
                Thread.sleep(NAMER_PAUSE_MS);
            } catch (InterruptedException e) {
                return; // the JVM is ending
            }
            for (int w = 0; w < SEEN.length; w++) {
                long fresh = SEEN[w] & ~named[w];
                if (fresh == 0) continue;
                named[w] |= fresh;
                for (int b = 0; b < 64; b++) {
                    if ((fresh >>> b & 1) == 0) continue;
                    try {
                        Parts.of(w << 6 | b);
                    } catch (Throwable e) {
                        // left for the writer, which reports what it cannot name
                    }
                }
            }
        }
    }

    /**
     * The static part of join point id, null if none: the advice passes
     * only the id (one int, so that a woven JDK's methods share one entry
     * helper, not one per class), and the names are found by id as the
     * profile is written.
     */
    static JoinPointStaticPart part(int id) {
        return id >= 0 ? Parts.of(id) : null;
    }

    private static void grow(State s) {
        int n = s.stack.length * 2;
        s.stack = java.util.Arrays.copyOf(s.stack, n);
        s.starts = java.util.Arrays.copyOf(s.starts, n);
        if (CPU_EXACT) s.cpuStarts = java.util.Arrays.copyOf(s.cpuStarts, n);
    }

    /**
     * The sampler's loop (profile.time=sampled): every INTERVAL_NS, the time
     * since the last sample goes to the current context of each thread that
     * runs (its exclusive wall time; its wait-ns too if the thread is in
     * a blocking call), and with CPU time the thread's CPU time since
     * then. A context is read without synchronization: enter stores it
     * before the depth, so a sample sees the context entered or its
     * parent, never a stale one. A sample late by a busy machine still
     * counts the whole time since the last one; and a scan of many threads
     * (ten thousand virtual threads) waits ten times its own length before
     * the next, so that sampling takes at most a tenth of a core.
     */
    private static void sample() {
        long last = System.nanoTime(), pause = INTERVAL_NS;
        for (;;) {
            try {
                Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
            } catch (InterruptedException e) {
                return; // the JVM is ending
            }
            long now = System.nanoTime(), wall = now - last;
            last = now;
            scan(wall);
            pause = Math.max(INTERVAL_NS, 10 * (System.nanoTime() - now));
        }
    }

    /** Charges wall ns to the current context of every thread that runs. */
    private static void scan(long wall) {
        synchronized (SAMPLED_TIMES) {
            scanLocked(wall);
        }
    }

    private static void scanLocked(long wall) {
        for (java.util.Iterator<State> i = RUNNING.iterator(); i.hasNext(); ) {
            State s = i.next();
            Thread t = s.owner;
            if (!t.isAlive()) { // ended: a program starting thread after thread is not scanned for each
                i.remove();
                continue;
            }
            Node[] stack = s.stack;
            int d = s.depth;
            Node n = d < stack.length ? stack[d] : null;
            if (n == null) continue;
            long cpu = 0;
            if (CPU) {
                long now = THREADS.getThreadCpuTime(t.getId());
                if (now > 0 && s.cpuSampled > 0) cpu = now - s.cpuSampled;
                s.cpuSampled = now;
            }
            long waited = s.waiting ? wall : 0;
            if (n instanceof Full) { // a root, or [folded]
                Full c = (Full) n;
                c.wallNanos += wall;
                c.waitNanos += waited;
                c.cpuNanos += cpu;
                continue;
            }
            long[] times = SAMPLED_TIMES.get(n);
            if (times == null) SAMPLED_TIMES.put(n, times = new long[3]);
            times[0] += wall;
            times[1] += waited;
            times[2] += cpu;
        }
    }

    /**
     * Measures the profiler's cost per execution, as JFluid does, by timing
     * executions that do nothing, with this thread's contexts kept apart: an
     * empty execution's measured time is the cost counted inside an
     * execution's own interval (inner); its caller's time per call, less
     * that, is the cost counted in the caller (outer). Both are the least
     * over rounds (the later ones JIT-compiled): noise only adds time. The executions are those of the
     * woven class weft.tools.profile.calibrate.Calibrate, so the woven guard and the
     * advice calls are measured too; if it is not woven (weft profile weaves
     * it), the profiler's entry and exit are timed directly instead, and the
     * guard's and calls' share stays in the times (docs/profile.md).
     */
    private static long[] calibrate() {
        if (!TIME || Boolean.getBoolean("profile.noCalibration")) return new long[] {0, 0};
        final int rounds = 15, calls = 20_000;
        long[] inner = new long[rounds], outer = new long[rounds];
        boolean bypass = DIB.get();
        Object slot = Local.get(); // the thread's own state (if any), put back after
        try {
            DIB.set(false); // inside advice: let the woven calibration code's advice run
            for (int r = 0; r < rounds; r++) {
                State calibration = new State("calibration", null);
                Local.set(calibration);
                try {
                    weft.tools.profile.calibrate.Calibrate.loop(calls);
                } catch (Throwable e) { // woven by another weft: time entry and exit directly
                    calibration = new State("calibration", null);
                    Local.set(calibration);
                }
                Node[] top = calibration.root.children();
                if (top.length == 0) { // Calibrate is not woven: time entry and exit directly
                    enter(-3);
                    for (int i = 0; i < calls; i++) {
                        enter(-4);
                        exit();
                    }
                    exit();
                    top = calibration.root.children();
                }
                Full loop = (Full) top[0], empty = (Full) loop.children()[0];
                inner[r] = empty.wallNanos / empty.calls;
                outer[r] = Math.max(0, loop.wallNanos / calls - inner[r]);
            }
        } finally {
            DIB.set(bypass);
            Local.set(slot);
        }
        // The smallest: noise (interpretation, the JIT's threads, other
        // processes) only ever adds time.
        java.util.Arrays.sort(inner);
        java.util.Arrays.sort(outer);
        NODES.set(0); // the calibration's contexts
        return new long[] {inner[0], outer[0]};
    }

    // ---- output ----

    /**
     * A merged context: the same path of join points in any thread, for
     * time's compensation, which takes the calls below a context in all
     * threads. Merging goes by join point id through the contexts' own
     * tables (no boxing, no map per context).
     */
    static final class Merged extends Full {
        long below; // calls in the subtree, itself excluded

        Merged(int id, boolean site) {
            super(id, site);
        }
    }

    static Merged merge() {
        Merged root = new Merged(-2, false);
        for (State s : STATES) add(root, s.root);
        return root;
    }

    private static void add(Merged m, Node n) {
        for (Node c : n.table) { // a running thread's table: read once, a snapshot
            if (c == null) continue;
            Merged k = (Merged) m.find(c.id);
            if (k == null) {
                k = new Merged(c.id, c.site());
                m.add(k);
            }
            k.calls += c.calls;
            if (c instanceof Counted) k.bytecodes += ((Counted) c).bytecodes;
            if (c instanceof Full) { // every context, time being measured
                Full f = (Full) c;
                k.wallNanos += f.wallNanos;
                k.cpuNanos += f.cpuNanos;
                k.waitNanos += f.waitNanos;
                k.objects += f.objects;
                k.arrays += f.arrays;
                k.elements += f.elements;
            }
            add(k, c);
        }
    }

    /** Sets the calls below every merged context; returns m's. */
    private static long count(Merged m) {
        long below = 0;
        for (Node k : m.table) if (k != null) below += k.calls + count((Merged) k);
        m.below = below;
        return below;
    }

    /** Wall time with the profiler's cost taken out. */
    static long compensated(Merged m) {
        return Math.max(0, m.wallNanos - INNER * m.calls - (INNER + OUTER) * m.below);
    }

    /** Set by the last write, at exit: a snapshot after it would truncate its files as the JVM ends. */
    private static boolean written;

    /**
     * Writes the threads' trees, merged (at exit, last, and every
     * profile.period seconds if set). Counts only, the writer merges the
     * threads' trees as it writes them; with time, they are merged first,
     * into a tree of their own, for the compensation.
     */
    static synchronized void write(boolean last) {
        if (written) return;
        written = last;
        DIB.set(true); // the writer's own work is not profiled
        Path out = Output.dir("profile.out", "WEFT_PROFILE_OUT", "weft-profile");
        Node[] roots;
        long calls = 0;
        if (TIME) {
            Merged root = merge();
            count(root);
            roots = new Node[] {root};
        } else {
            java.util.ArrayList<Node> all = new java.util.ArrayList<>();
            for (State s : STATES) all.add(s.root); // threads may start meanwhile
            roots = all.toArray(new Node[0]);
        }
        try {
            Files.createDirectories(out);
            try (OutputStream w = Files.newOutputStream(out.resolve("profile.cct"))) {
                calls = writeTree(w, roots);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("summary.txt")))) {
                // Concatenated, not printf: java.util.Formatter's first use
                // loads and runs its parser, regular expressions and locale
                // data, at every run's end.
                String n = System.lineSeparator();
                w.print("threads " + STATES.size() + n + "contexts " + NODES.get() + " (limit " + MAX_NODES + ")" + n
                        + "calls " + calls + n);
                if (SAMPLED) {
                    w.print("time sampled every " + INTERVAL_NS / 1000 + " us" + n);
                } else {
                    w.print("calibration inner " + INNER + " ns outer " + OUTER + " ns per execution" + n);
                }
            }
        } catch (IOException e) {
            System.err.println("profile: writing " + out + ": " + e);
        }
    }

    /**
     * The frame names of the contexts, numbered as the writer meets them
     * (each join point's made once); children are sorted by name as they
     * are written, in the order of their UTF-8 bytes (code points), the
     * order weft flame sorts frames in. Named as met, not in a walk of
     * their own before: a second walk of a tree of a million contexts,
     * and the sort of all names, cost as much as writing it. Compared as
     * UTF-8 bytes by the profiler's own code: the JDK's methods are woven,
     * and each call from here would test the bypass flag.
     */
    static final class Names {
        final Map<String, Integer> numbers = new HashMap<>();
        byte[][] utf8 = new byte[1 << 12][]; // by number: the name in UTF-8
        int size;
        final Map<Integer, Integer> ofLarge = new HashMap<>(); // ids outside of
        int[] of = new int[1 << 16]; // by join point id: its name's number + 1, 0 if not named yet

        /** The number of k's frame name, named now if new. */
        int of(Node k) {
            int id = k.id;
            if (id >= 0 && id < 1 << 24) {
                if (id < of.length && of[id] != 0) return of[id] - 1;
            } else {
                Integer n = ofLarge.get(id);
                if (n != null) return n;
            }
            String name = k.frame(part(id));
            Integer m = numbers.get(name);
            if (m == null) {
                m = size++;
                numbers.put(name, m);
                if (m == utf8.length) utf8 = java.util.Arrays.copyOf(utf8, 2 * m);
                utf8[m] = name.getBytes(StandardCharsets.UTF_8);
            }
            if (id >= 0 && id < 1 << 24) {
                if (id >= of.length) of = java.util.Arrays.copyOf(of, Math.max(id + 1, 2 * of.length));
                of[id] = m + 1;
            } else {
                ofLarge.put(id, m);
            }
            return m;
        }

        /** Compares names a and b by their UTF-8 bytes, unsigned: by code points. */
        int compare(int a, int b) {
            if (a == b) return 0;
            byte[] x = utf8[a], y = utf8[b];
            int n = x.length < y.length ? x.length : y.length;
            for (int i = 0; i < n; i++) {
                if (x[i] != y[i]) return (x[i] & 0xff) - (y[i] & 0xff);
            }
            return x.length - y.length;
        }
    }

    /**
     * Writes the trees, merged, in weft's calling-context format, which weft
     * flame and weft profile read (docs/profile.md): a header, the metric
     * names, the frame names once each, then one line per context in
     * preorder, "n PARENT FRAME" and its exclusive values, the root being
     * context 0. It is a small fraction of the size of folded stacks, which
     * repeat every frame of every path. It is written in canonical order
     * (flame.WriteCCTHTML): a context's children by frame name, those of one
     * name (from several threads, or overloads of a method) as one context,
     * their values summed, as weft flame would merge them, so that weft
     * profile can stream the flame graph from it without building the tree.
     */
    private static long writeTree(OutputStream w, Node[] roots) throws IOException {
        IdentityHashMap<Node, long[]> sampled = null;
        if (SAMPLED) {
            synchronized (SAMPLED_TIMES) { // a snapshot: the sampler goes on
                sampled = new IdentityHashMap<>(SAMPLED_TIMES);
            }
        }
        TreeWriter t = new TreeWriter(w, new Names(), sampled);
        t.text("# weft cct 1\n");
        String counts = BYTECODES ? "metrics calls objects arrays elements bytecodes" : "metrics calls objects arrays elements";
        if (!TIMED) {
            t.text(counts + "\n");
        } else {
            t.text(counts + (CPU ? " wall-ns wall-raw-ns cpu-ns wait-ns\n" : " wall-ns wall-raw-ns wait-ns\n"));
        }
        t.nodes(roots, 0, roots.length, 0, 0);
        t.flush();
        return t.calls;
    }

    /**
     * Numbers frames and contexts as it writes them, into a buffer of bytes
     * of its own: a million contexts written through a PrintWriter and a
     * StringBuilder went through the woven JDK's character encoders a few
     * times per context.
     */
    private static final class TreeWriter {
        final OutputStream w;
        final Names names;
        final IdentityHashMap<Node, long[]> sampled; // a snapshot of SAMPLED_TIMES, with sampled time
        int[] frameOf = new int[1 << 12]; // by name number: its frame + 1, 0 if not written yet
        // By depth: the children of the group written there, unsorted and
        // sorted, and their sort keys (rank << 32 | index).
        Node[][] found = new Node[64][], sorted = new Node[64][];
        long[][] keys = new long[64][];
        final byte[] buf = new byte[1 << 16];
        int pos;
        int next = 1;
        int frames;
        long calls; // in the contexts written
        final long[] values = new long[(BYTECODES ? 1 : 0) + (!TIMED ? 4 : CPU ? 8 : 7)]; // of the context being written, by metric
        long[] scratch = new long[16]; // sortByName's

        /**
         * Sorts keys[0, n) (name << 32 | index) by their names, merging runs
         * sorted by insertion: a context's children are few but for some.
         */
        void sortByName(long[] keys, int n) {
            final int run = 8;
            for (int lo = 0; lo < n; lo += run) {
                int hi = Math.min(n, lo + run);
                for (int i = lo + 1; i < hi; i++) {
                    long k = keys[i];
                    int j = i - 1;
                    while (j >= lo && names.compare((int) (keys[j] >>> 32), (int) (k >>> 32)) > 0) {
                        keys[j + 1] = keys[j];
                        j--;
                    }
                    keys[j + 1] = k;
                }
            }
            if (n <= run) return;
            if (scratch.length < n) scratch = new long[Math.max(n, 2 * scratch.length)];
            long[] from = keys, to = scratch;
            for (int width = run; width < n; width *= 2) {
                for (int lo = 0; lo < n; lo += 2 * width) {
                    int mid = Math.min(n, lo + width), hi = Math.min(n, lo + 2 * width);
                    int i = lo, j = mid, o = lo;
                    while (i < mid && j < hi) {
                        to[o++] = names.compare((int) (from[i] >>> 32), (int) (from[j] >>> 32)) <= 0 ? from[i++] : from[j++];
                    }
                    while (i < mid) to[o++] = from[i++];
                    while (j < hi) to[o++] = from[j++];
                }
                long[] t = from;
                from = to;
                to = t;
            }
            if (from != keys) System.arraycopy(from, 0, keys, 0, n);
        }

        TreeWriter(OutputStream w, Names names, IdentityHashMap<Node, long[]> sampled) {
            this.w = w;
            this.names = names;
            this.sampled = sampled;
        }

        int frame(int name) throws IOException {
            if (name >= frameOf.length) frameOf = java.util.Arrays.copyOf(frameOf, Math.max(name + 1, 2 * frameOf.length));
            if (frameOf[name] != 0) return frameOf[name] - 1;
            if (pos > buf.length - 2) flush();
            buf[pos++] = 'f';
            buf[pos++] = ' ';
            bytes(names.utf8[name]);
            if (pos == buf.length) flush();
            buf[pos++] = '\n';
            frameOf[name] = ++frames;
            return frames - 1;
        }

        /**
         * Writes the children of group[from, to), contexts of one frame name
         * under one parent context (one thread's, several threads', or
         * overloads'), as children of context parent.
         */
        void nodes(Node[] group, int from, int to, int parent, int depth) throws IOException {
            if (depth == found.length) {
                found = java.util.Arrays.copyOf(found, 2 * depth);
                sorted = java.util.Arrays.copyOf(sorted, 2 * depth);
                keys = java.util.Arrays.copyOf(keys, 2 * depth);
            }
            Node[] c = found[depth];
            long[] key = keys[depth];
            int n = 0;
            for (int i = from; i < to; i++) {
                for (Node k : group[i].table) {
                    if (k == null) continue;
                    int name = names.of(k);
                    if (c == null) {
                        c = new Node[16];
                        key = new long[16];
                    } else if (n == c.length) {
                        c = java.util.Arrays.copyOf(c, 2 * n);
                        key = java.util.Arrays.copyOf(key, 2 * n);
                    }
                    c[n] = k;
                    key[n] = (long) name << 32 | n;
                    n++;
                }
            }
            if (n == 0) return;
            found[depth] = c;
            keys[depth] = key;
            sortByName(key, n);
            Node[] s = sorted[depth];
            if (s == null || s.length < n) s = sorted[depth] = new Node[c.length];
            for (int i = 0; i < n; i++) s[i] = c[(int) key[i]];
            for (int i = 0, j; i < n; i = j) {
                j = i + 1;
                while (j < n && key[j] >>> 32 == key[i] >>> 32) j++;
                int f = frame((int) (key[i] >>> 32));
                long calls = 0, objects = 0, arrays = 0, elements = 0, bytecodes = 0, comp = 0, wall = 0, cpu = 0, wait = 0;
                for (int x = i; x < j; x++) {
                    Node k = s[x];
                    calls += k.calls;
                    if (k instanceof Counted) bytecodes += ((Counted) k).bytecodes;
                    if (!(k instanceof Full)) { // an execution's: its time is the sampler's
                        long[] times = SAMPLED ? sampled.get(k) : null;
                        if (times != null) {
                            wall += times[0];
                            comp += times[0];
                            wait += times[1];
                            cpu += times[2];
                        }
                        continue;
                    }
                    Full v = (Full) k;
                    objects += v.objects;
                    arrays += v.arrays;
                    elements += v.elements;
                    if (!TIMED) continue;
                    wait += v.waitNanos;
                    if (SAMPLED) { // exclusive already
                        wall += v.wallNanos;
                        comp += v.wallNanos;
                        cpu += v.cpuNanos;
                        continue;
                    }
                    long childComp = 0, childWall = 0, childCpu = 0;
                    for (Node g : k.table) {
                        if (g == null) continue;
                        childComp += compensated((Merged) g);
                        childWall += ((Merged) g).wallNanos;
                        childCpu += ((Merged) g).cpuNanos;
                    }
                    comp += Math.max(0, compensated((Merged) k) - childComp);
                    wall += Math.max(0, v.wallNanos - childWall);
                    cpu += Math.max(0, v.cpuNanos - childCpu);
                }
                int self = next++;
                this.calls += calls;
                long[] v = values;
                v[0] = calls;
                v[1] = objects;
                v[2] = arrays;
                v[3] = elements;
                int at = 4;
                if (BYTECODES) v[at++] = bytecodes;
                if (TIMED) {
                    v[at] = comp;
                    v[at + 1] = wall;
                    if (CPU) v[at + 2] = cpu;
                    v[v.length - 1] = wait;
                }
                int m = v.length; // trailing zeros are left out
                while (m > 0 && v[m - 1] == 0) m--;
                if (pos > buf.length - 256) flush();
                buf[pos++] = 'n';
                number(parent);
                number(f);
                for (int x = 0; x < m; x++) number(v[x]);
                buf[pos++] = '\n';
                nodes(s, i, j, self, depth + 1);
            }
        }

        /** Appends a space and v (not negative) in decimal. */
        void number(long v) {
            buf[pos++] = ' ';
            if (v == (int) v) { // most: int division is the JIT's own, long division a call into the JVM
                int x = (int) v, digits = 1;
                for (int y = x; y >= 10; y /= 10) digits++;
                int end = pos + digits;
                for (int i = end - 1; i >= pos; i--) {
                    buf[i] = (byte) ('0' + x % 10);
                    x /= 10;
                }
                pos = end;
                return;
            }
            int digits = 1;
            for (long x = v; x >= 10; x /= 10) digits++;
            int end = pos + digits;
            for (int i = end - 1; i >= pos; i--) {
                buf[i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            pos = end;
        }

        /** Appends a header line, in UTF-8. */
        void text(String s) throws IOException {
            bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        void bytes(byte[] b) throws IOException {
            if (pos + b.length > buf.length) flush();
            if (b.length > buf.length) {
                w.write(b);
                return;
            }
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }

        void flush() throws IOException {
            w.write(buf, 0, pos);
            pos = 0;
        }
    }
}
