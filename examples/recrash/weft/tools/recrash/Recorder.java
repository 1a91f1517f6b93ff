package weft.tools.recrash;

import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import weft.rt.JoinPointStaticPart;
import weft.rt.Local;
import weft.rt.Output;

/**
 * Advice of recrash.weft, after ReCrash (Artzi, Kim and Ernst): as an
 * exception leaves the frames of a thread, their receivers and arguments
 * are added to its trail (the innermost frame first), until another
 * exception is thrown; when that exception escapes the thread (or a
 * chosen method), the frames' values are written to crashN/frameK.ser and
 * what weft needs to write the tests to crashN/crash.json. The advice runs
 * with the per-thread bypass set, so none of this is itself recorded.
 *
 * <p>Most executions cost nothing until an exception leaves them: their
 * parameters hold the entry values (the weaver copies those the body
 * assigns), so {@link #left} adds the frame and {@link #leftArg} its
 * arguments (recrash.weft passes eachArg) from the exception's handler.
 * The executions whose arguments are copied on entry (those taking an
 * array; all of them with --depth) keep a shadow stack instead: {@link
 * #enter} pushes the frame (its id, static part and receiver), then {@link
 * #arg} is called once per argument, primitives unboxed, into the thread's
 * arrays, allocated once and grown when full (recording a call allocates
 * nothing); {@link #thrown} moves the frame to the trail, its arguments
 * boxed as thisJoinPoint.getArgs() would have them.
 *
 * <p>Settings (system property, else environment variable): recrash.out /
 * WEFT_RECRASH_OUT, the output directory (default ./weft-recrash);
 * recrash.depth / WEFT_RECRASH_DEPTH, the copy depth (0: shallow);
 * recrash.maxElements / WEFT_RECRASH_MAX_ELEMENTS (arrays copied up to
 * that length, 1000); recrash.maxObjects / WEFT_RECRASH_MAX_OBJECTS
 * (objects copied per call, deep copies, 1000); recrash.maxStack /
 * WEFT_RECRASH_MAX_STACK (frames kept per thread, 10000: deeper ones are
 * counted, not kept); recrash.frames / WEFT_RECRASH_FRAMES (innermost
 * frames saved per crash, 50); recrash.method / WEFT_RECRASH_METHOD
 * (also save when an exception escapes this method, "pkg.Class.name").
 */
public final class Recorder {
    private Recorder() {}

    /**
     * A thread's shadow stack: frame d (1-based) in ids[d], parts[d],
     * selves[d], its arguments in the slots from bases[d] up to the next
     * frame's (the top frame's: up to top), a primitive's bits in bits[i]
     * (a float's or double's raw bits), a reference in refs[i].
     */
    static final class State {
        int depth;
        /** The frames below it fit the arrays and are kept: min(their length, MAX_STACK). */
        int room = Math.min(64, MAX_STACK);
        int[] ids = new int[64];
        JoinPointStaticPart[] parts = new JoinPointStaticPart[64];
        /** A constructor's object too (kept, not copied: the trail leaves it out). */
        Object[] selves = new Object[64];
        int[] bases = new int[64];
        /** The first free argument slot. */
        int top;
        long[] bits = new long[256];
        Object[] refs = new Object[256];
        /** With deep copies: the arguments the top frame still waits for before its copy. */
        int pending;
        String[] pendingTypes;
        /** The parameter types of the static parts met, by their signatures (params). */
        final java.util.IdentityHashMap<JoinPointStaticPart, String[]> types = new java.util.IdentityHashMap<>();
        /** The last exception seen thrown and the frames it has left. */
        Throwable thrown;
        final Trail trail = new Trail();
        /** The exception last saved, saved once. */
        Throwable saved;
    }

    /**
     * The frames an exception has left, innermost first: the first FRAMES
     * kept, their arguments boxed. The last one's arguments may be coming
     * in (leftArg): next is the index of the next, -1 when none is to
     * come.
     */
    static final class Trail {
        JoinPointStaticPart[] parts = new JoinPointStaticPart[8];
        Object[] selves = new Object[8];
        Object[][] args = new Object[8][];
        int n;
        /** Frames deeper than the shadow stack keeps (MAX_STACK). */
        int unkept;
        int next = -1;
        String[] types;

        void clear() {
            java.util.Arrays.fill(parts, 0, n, null);
            java.util.Arrays.fill(selves, 0, n, null);
            java.util.Arrays.fill(args, 0, n, null);
            n = unkept = 0;
            next = -1;
        }

        /** Adds a frame; false if FRAMES are kept already. */
        boolean add(JoinPointStaticPart sp, Object self, Object[] a) {
            next = -1;
            if (n >= FRAMES) return false;
            if (n == parts.length) {
                int m = Math.min(2 * n, FRAMES);
                parts = java.util.Arrays.copyOf(parts, m);
                selves = java.util.Arrays.copyOf(selves, m);
                args = java.util.Arrays.copyOf(args, m);
            }
            parts[n] = sp;
            selves[n] = self;
            args[n] = a;
            n++;
            return true;
        }

        Snapshot snapshot() {
            return new Snapshot(java.util.Arrays.copyOf(parts, n), java.util.Arrays.copyOf(selves, n),
                    java.util.Arrays.copyOf(args, n), unkept);
        }
    }

    /** The frames an exception left, innermost first. */
    static final class Snapshot {
        final JoinPointStaticPart[] parts;
        final Object[] selves;
        final Object[][] args;
        final int unkept; // frames deeper than maxStack, not kept

        Snapshot(JoinPointStaticPart[] parts, Object[] selves, Object[][] args, int unkept) {
            this.parts = parts;
            this.selves = selves;
            this.args = args;
            this.unkept = unkept;
        }
    }

    static final Path OUT = Output.dir("recrash.out", "WEFT_RECRASH_OUT", "weft-recrash");
    static final int MAX_STACK = Integer.parseInt(setting("recrash.maxStack", "WEFT_RECRASH_MAX_STACK", "10000"));
    static final int FRAMES = Integer.parseInt(setting("recrash.frames", "WEFT_RECRASH_FRAMES", "50"));
    static final String METHOD = setting("recrash.method", "WEFT_RECRASH_METHOD", "");
    static final Copier COPIER = new Copier(
            Integer.parseInt(setting("recrash.depth", "WEFT_RECRASH_DEPTH", "0")),
            Integer.parseInt(setting("recrash.maxElements", "WEFT_RECRASH_MAX_ELEMENTS", "1000")),
            Integer.parseInt(setting("recrash.maxObjects", "WEFT_RECRASH_MAX_OBJECTS", "1000")));
    /** Whether receivers and arguments are copied deeper than arrays (--depth above 0). */
    private static final boolean DEEP = COPIER.depth > 0;
    private static int crashes;

    /** A setting: the system property, else the environment variable, else the default. */
    private static String setting(String property, String env, String otherwise) {
        String v = System.getProperty(property);
        if (v == null) v = System.getenv(env);
        return v != null && !v.isEmpty() ? v : otherwise;
    }

    // The state lives in weft.rt.Local's slot, a field of java.lang.Thread
    // in the woven JDK: a ThreadLocal would be looked up while the thread's
    // woven code may be changing its ThreadLocal map.
    private static State state() {
        Object s = Local.get();
        if (s instanceof State) return (State) s;
        State n = new State();
        Local.set(n);
        return n;
    }

    // enter, arg and exit run at every execution: their common path is a
    // few loads and stores, small enough for the JIT to inline into every
    // woven method without making it too big to be inlined in turn; what
    // is rare (growing, copies, a stack past MAX_STACK) is in methods of
    // their own.

    /** Pushes the frame of execution join point id of a static method: its arguments follow (arg). */
    public static void enter(int id, JoinPointStaticPart sp) {
        enter(id, sp, null);
    }

    /** Pushes the frame of execution join point id, self's: its arguments follow (arg). */
    public static void enter(int id, JoinPointStaticPart sp, Object self) {
        State s = state();
        int d = ++s.depth;
        if (d >= s.room && !room(s, d)) return;
        s.ids[d] = id;
        s.parts[d] = sp;
        s.selves[d] = self;
        s.bases[d] = s.top;
        if (DEEP) waitArgs(s, sp);
    }

    /** The top frame's next argument, a boolean's, byte's, char's, short's or int's value. */
    public static void arg(int v) {
        State s = state();
        int i = slot(s);
        if (i >= 0) s.bits[i] = v;
        if (DEEP) argDone(s);
    }

    /** The top frame's next argument, a long. */
    public static void arg(long v) {
        State s = state();
        int i = slot(s);
        if (i >= 0) s.bits[i] = v;
        if (DEEP) argDone(s);
    }

    /** The top frame's next argument, a float. */
    public static void arg(float v) {
        State s = state();
        int i = slot(s);
        if (i >= 0) s.bits[i] = Float.floatToRawIntBits(v);
        if (DEEP) argDone(s);
    }

    /** The top frame's next argument, a double. */
    public static void arg(double v) {
        State s = state();
        int i = slot(s);
        if (i >= 0) s.bits[i] = Double.doubleToRawLongBits(v);
        if (DEEP) argDone(s);
    }

    /** The top frame's next argument, a reference (or a boolean, boxed). */
    public static void arg(Object v) {
        State s = state();
        int i = slot(s);
        if (i < 0) return;
        // A shallow copy clones an array argument (Copier).
        s.refs[i] = !DEEP && v != null && v.getClass().isArray() ? COPIER.shallow(v) : v;
        if (DEEP) argDone(s);
    }

    /** The next argument slot of the top frame, -1 if the frame is not kept. */
    private static int slot(State s) {
        if (s.depth >= s.room) return -1;
        int i = s.top;
        if (i == s.bits.length) moreSlots(s);
        s.top = i + 1;
        return i;
    }

    /** Pops the frame of join point id, which returned. */
    public static void exit(int id) {
        State s = state();
        int d = s.depth;
        if (d > 0 && d < s.room && s.ids[d] == id) {
            int b = s.bases[d];
            for (int i = b; i < s.top; i++) s.refs[i] = null;
            s.top = b;
            s.selves[d] = null;
            s.depth = d - 1;
            return;
        }
        pop(s, id);
    }

    /** Makes room for frame d if it is to be kept (below MAX_STACK). */
    private static boolean room(State s, int d) {
        if (d >= MAX_STACK) return false;
        int n = s.ids.length * 2;
        s.ids = java.util.Arrays.copyOf(s.ids, n);
        s.parts = java.util.Arrays.copyOf(s.parts, n);
        s.selves = java.util.Arrays.copyOf(s.selves, n);
        s.bases = java.util.Arrays.copyOf(s.bases, n);
        s.room = Math.min(n, MAX_STACK);
        return true;
    }

    private static void moreSlots(State s) {
        int n = s.bits.length * 2;
        s.bits = java.util.Arrays.copyOf(s.bits, n);
        s.refs = java.util.Arrays.copyOf(s.refs, n);
    }

    // Deep copies (--depth above 0) are of the receiver and all arguments
    // at once, sharing what they share: the frame is copied when its last
    // argument is in, before the method's body runs.

    /** Sets the arguments the new top frame waits for; copies it now if none. */
    private static void waitArgs(State s, JoinPointStaticPart sp) {
        String[] types = params(s, sp);
        s.pending = types.length;
        s.pendingTypes = types;
        if (types.length == 0) copyTop(s);
    }

    private static void argDone(State s) {
        if (s.depth < s.room && --s.pending == 0) copyTop(s);
    }

    /** Copies the top frame's receiver and arguments (Copier.copy), in place. */
    private static void copyTop(State s) {
        int d = s.depth;
        String[] types = s.pendingTypes;
        Object[] args = args(s, d, s.top, types);
        JoinPointStaticPart sp = s.parts[d];
        s.selves[d] = COPIER.copy(constructor(sp) ? null : s.selves[d], args);
        for (int k = 0, i = s.bases[d]; i < s.top; k++, i++) {
            if (k >= types.length || !primitive(types[k])) s.refs[i] = args[k];
        }
    }

    /** Whether sp is a constructor's: a constructor's object is not needed to call it again. */
    private static boolean constructor(JoinPointStaticPart sp) {
        return sp.getKind().charAt(0) == 'c';
    }

    /** The parameter types of sp's member, as its signature names them ("int", "java.lang.String"). */
    private static String[] params(State s, JoinPointStaticPart sp) {
        String[] types = s.types.get(sp);
        if (types == null) {
            String sig = sp.getSignature();
            String ps = sig.substring(sig.indexOf('(') + 1, sig.length() - 1);
            types = ps.isEmpty() ? new String[0] : ps.split(", ");
            s.types.put(sp, types);
        }
        return types;
    }

    private static boolean primitive(String type) {
        switch (type) {
            case "int": case "long": case "boolean": case "byte": case "char": case "short": case "float": case "double":
                return true;
        }
        return false;
    }

    /**
     * Frame d's arguments, in the slots from its base to end, as
     * thisJoinPoint.getArgs() gives them: primitives boxed as their
     * parameter's type.
     */
    private static Object[] args(State s, int d, int end, String[] types) {
        int b = s.bases[d];
        Object[] out = new Object[end - b];
        for (int k = 0; k < out.length; k++) {
            long v = s.bits[b + k];
            String t = k < types.length ? types[k] : "";
            switch (t) {
                case "int": out[k] = (int) v; break;
                case "long": out[k] = v; break;
                case "byte": out[k] = (byte) v; break;
                case "char": out[k] = (char) v; break;
                case "short": out[k] = (short) v; break;
                case "float": out[k] = Float.intBitsToFloat((int) v); break;
                case "double": out[k] = Double.longBitsToDouble(v); break;
                default: out[k] = s.refs[b + k]; // a reference, or a boolean's box
            }
        }
        return out;
    }

    /** Starts t's trail if t is not the exception the thread last saw thrown. */
    private static State seen(State s, Throwable t) {
        if (s.thrown != t) {
            s.thrown = t;
            s.trail.clear();
        }
        return s;
    }

    /** Pops the frame of join point id, which t is leaving, onto t's trail. */
    public static void thrown(int id, Throwable t) {
        State s = state();
        int d = s.depth;
        if (d == 0 || d < MAX_STACK && s.ids[d] != id) return; // an exit whose entry was not seen
        seen(s, t);
        if (d < MAX_STACK) {
            JoinPointStaticPart sp = s.parts[d];
            s.trail.add(sp, constructor(sp) ? null : s.selves[d], args(s, d, s.top, params(s, sp)));
            escaped(s, sp);
        } else {
            s.trail.unkept++;
        }
        pop(s, id);
    }

    /** Adds the frame of a static method or constructor t is leaving to t's trail: its arguments follow (leftArg). */
    public static void left(Throwable t, JoinPointStaticPart sp) {
        left(t, sp, null);
    }

    /** Adds the frame t is leaving, self's, to t's trail: its arguments follow (leftArg). */
    public static void left(Throwable t, JoinPointStaticPart sp, Object self) {
        State s = seen(state(), t);
        String[] types = params(s, sp);
        Trail tr = s.trail;
        if (!tr.add(sp, constructor(sp) ? null : self, new Object[types.length]) || types.length == 0) {
            escaped(s, sp);
            return;
        }
        tr.types = types;
        tr.next = 0;
    }

    /** The next argument of the frame left, a boolean's, byte's, char's, short's or int's value. */
    public static void leftArg(int v) {
        Trail tr = state().trail;
        if (tr.next < 0) return;
        switch (tr.types[tr.next]) {
            case "byte": put((byte) v); break;
            case "char": put((char) v); break;
            case "short": put((short) v); break;
            default: put(v);
        }
    }

    /** The next argument of the frame left, a long. */
    public static void leftArg(long v) {
        put(v);
    }

    /** The next argument of the frame left, a float. */
    public static void leftArg(float v) {
        put(v);
    }

    /** The next argument of the frame left, a double. */
    public static void leftArg(double v) {
        put(v);
    }

    /** The next argument of the frame left, a reference (or a boolean, boxed). */
    public static void leftArg(Object v) {
        put(v);
    }

    private static void put(Object v) {
        State s = state();
        Trail tr = s.trail;
        int k = tr.next;
        if (k < 0) return;
        Object[] a = tr.args[tr.n - 1];
        a[k] = v;
        if (++k < a.length) {
            tr.next = k;
            return;
        }
        tr.next = -1;
        escaped(s, tr.parts[tr.n - 1]);
    }

    /** With --method, saves the trail the first time the thread's exception leaves that method (sp). */
    private static void escaped(State s, JoinPointStaticPart sp) {
        Throwable t = s.thrown;
        if (!METHOD.isEmpty() && s.saved != t && METHOD.equals(name(sp))) {
            s.saved = t;
            save(s.trail.snapshot(), t, "escaped " + METHOD);
        }
    }

    private static void pop(State s, int id) {
        int d = s.depth;
        if (d == 0) return;
        if (d < MAX_STACK) {
            if (s.ids[d] != id) return;
            int b = s.bases[d];
            for (int i = b; i < s.top; i++) s.refs[i] = null;
            s.top = b;
            s.parts[d] = null;
            s.selves[d] = null;
        }
        s.depth = d - 1;
    }

    /** Saves the stack where e was thrown: e is escaping the current thread. */
    public static void uncaught(Throwable e) {
        State s = state();
        if (s.saved == e) return;
        s.saved = e;
        Snapshot sn = null;
        for (Throwable c = e; c != null && sn == null; c = c.getCause() == c ? null : c.getCause()) {
            if (c == s.thrown) sn = s.trail.snapshot();
        }
        save(sn, e, "escaped thread \"" + Thread.currentThread().getName() + "\"");
    }

    /** "pkg.Class.name" of a static part. */
    private static String name(JoinPointStaticPart sp) {
        return sp.getDeclaringTypeName() + "." + sp.getName();
    }

    private static synchronized void save(Snapshot sn, Throwable e, String why) {
        try {
            Path dir = OUT.toAbsolutePath().resolve("crash" + ++crashes);
            Files.createDirectories(dir);
            Json j = new Json();
            j.open('{');
            j.key("thread").str(Thread.currentThread().getName());
            j.key("why").str(why);
            j.key("exception").str(e.getClass().getName());
            j.key("message").str(String.valueOf(e.getMessage()));
            StackTraceElement[] st = e.getStackTrace();
            j.key("thrownAt").str(st.length > 0 ? st[0].getClassName() + "." + st[0].getMethodName() : "");
            StringBuilder trace = new StringBuilder(e.toString());
            for (int i = 0; i < st.length && i < 30; i++) trace.append("\n\tat ").append(st[i]);
            j.key("trace").str(trace.toString());
            j.key("unkept").num(sn == null ? 0 : sn.unkept);
            j.key("frames").open('[');
            for (int k = 0; sn != null && k < sn.parts.length; k++) {
                frame(j, dir, k, sn.parts[k], sn.selves[k], sn.args[k]);
            }
            j.close(']');
            j.close('}');
            Files.write(dir.resolve("crash.json"), j.b.toString().getBytes(StandardCharsets.UTF_8));
        } catch (Throwable t) {
            System.err.println("weft recrash: saving the crash of " + e + ": " + t);
        }
    }

    /** Writes frame k's values to frameK.ser and describes it. */
    private static void frame(Json j, Path dir, int k, JoinPointStaticPart sp, Object self, Object[] args)
            throws IOException {
        Set<String> notes = new TreeSet<>();
        Object[] values = new Object[args.length + 1];
        values[0] = self;
        System.arraycopy(args, 0, values, 1, args.length);
        byte[] state = Capture.write(values, notes);
        String file = "frame" + k + ".ser";
        if (state != null) Files.write(dir.resolve(file), state);

        Member m = new Member(sp, self);
        j.open('{');
        j.key("kind").str(sp.getKind());
        j.key("class").str(m.owner);
        j.key("name").str(m.name);
        j.key("params").open('[');
        for (String p : m.params) j.str(p);
        j.close(']');
        j.key("static").bool(Modifier.isStatic(sp.getModifiers()));
        j.key("location").str(sp.getSourceLocation());
        j.key("state").str(state != null ? file : "");
        j.key("values").open('[');
        for (Object v : values) j.str(v == null ? "null" : v.getClass().getName());
        j.close(']');
        // Set when the test can call the member directly: it and every
        // type it names are public and exported.
        j.key("direct").bool(m.direct());
        j.key("classSource").str(m.source(m.cls));
        j.key("paramSource").open('[');
        for (int i = 0; i < m.params.length; i++) j.str(m.source(m.paramTypes[i]));
        j.close(']');
        j.key("module").str(m.module());
        j.key("notes").open('[');
        for (String n : notes) j.str(n);
        j.close(']');
        j.close('}');
    }

    /** A frame's member as the generated test names it. */
    static final class Member {
        final String owner, name;
        final String[] params;
        final Class<?> cls;
        final Class<?>[] paramTypes;
        final int modifiers;
        final boolean constructor;

        Member(JoinPointStaticPart sp, Object self) {
            String s = sp.getSignature(); // "int demo.A.m(int, java.util.List)"
            int open = s.indexOf('(');
            String head = s.substring(s.indexOf(' ') + 1, open);
            int dot = head.lastIndexOf('.');
            owner = head.substring(0, dot);
            name = head.substring(dot + 1);
            String ps = s.substring(open + 1, s.length() - 1);
            params = ps.isEmpty() ? new String[0] : ps.split(", ");
            modifiers = sp.getModifiers();
            constructor = name.equals("<init>");
            ClassLoader[] loaders = {
                self != null ? self.getClass().getClassLoader() : null,
                Thread.currentThread().getContextClassLoader(),
                ClassLoader.getSystemClassLoader(),
            };
            cls = load(owner, loaders);
            paramTypes = new Class<?>[params.length];
            ClassLoader own = cls != null ? cls.getClassLoader() : null;
            for (int i = 0; i < params.length; i++) {
                paramTypes[i] = load(params[i], new ClassLoader[] {own, loaders[1], loaders[2]});
            }
        }

        private static Class<?> load(String name, ClassLoader[] loaders) {
            int dims = 0;
            while (name.endsWith("[]")) {
                name = name.substring(0, name.length() - 2);
                dims++;
            }
            Class<?> c = primitive(name);
            for (int i = 0; c == null && i <= loaders.length; i++) {
                try {
                    c = Class.forName(name, false, i < loaders.length ? loaders[i] : null);
                } catch (ClassNotFoundException | LinkageError e) {
                    // the next loader
                }
            }
            for (; c != null && dims > 0; dims--) c = Array.newInstance(c, 0).getClass();
            return c;
        }

        private static Class<?> primitive(String n) {
            switch (n) {
                case "int": return int.class;
                case "long": return long.class;
                case "boolean": return boolean.class;
                case "byte": return byte.class;
                case "char": return char.class;
                case "short": return short.class;
                case "float": return float.class;
                case "double": return double.class;
            }
            return null;
        }

        boolean direct() {
            if (!Modifier.isPublic(modifiers) || !accessible(cls)) return false;
            if (constructor && Modifier.isAbstract(cls.getModifiers())) return false;
            if (constructor && cls.getEnclosingClass() != null && !Modifier.isStatic(cls.getModifiers())) return false;
            for (Class<?> p : paramTypes) {
                if (!accessible(p)) return false;
            }
            return true;
        }

        private static boolean accessible(Class<?> c) {
            if (c == null) return false;
            while (c.isArray()) c = c.getComponentType();
            if (c.isPrimitive()) return true;
            if (c.getCanonicalName() == null || c.getPackageName().isEmpty()) return false;
            for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
                if (!Modifier.isPublic(k.getModifiers())) return false;
            }
            return c.getModule().isExported(c.getPackageName());
        }

        String source(Class<?> c) {
            return c == null || c.getCanonicalName() == null ? "" : c.getCanonicalName();
        }

        String module() {
            return cls != null && cls.getModule().isNamed() ? cls.getModule().getName() + "/" + cls.getPackageName() : "";
        }
    }

    /** Just enough JSON. */
    static final class Json {
        final StringBuilder b = new StringBuilder();
        private boolean first = true;

        Json open(char c) {
            sep();
            b.append(c);
            first = true;
            return this;
        }

        Json close(char c) {
            b.append(c);
            first = false;
            return this;
        }

        Json key(String k) {
            str(k);
            b.append(':');
            first = true;
            return this;
        }

        Json str(String s) {
            sep();
            b.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            b.append('"');
            return this;
        }

        Json num(long n) {
            sep();
            b.append(n);
            return this;
        }

        Json bool(boolean v) {
            sep();
            b.append(v);
            return this;
        }

        private void sep() {
            if (!first) b.append(',');
            first = false;
        }
    }
}
