package weft.tools.recrash;

import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;

import weft.rt.JoinPoint;
import weft.rt.JoinPointStaticPart;
import weft.rt.Local;

/**
 * Advice of recrash.weft, after ReCrash (Artzi, Kim and Ernst): each
 * thread keeps a shadow stack of the receiver and arguments of its active
 * methods (copied on entry as {@link Copier} says); when an exception is
 * thrown, the stack at the throw point is kept (the innermost frames
 * first) until another exception replaces it; when that exception
 * escapes the thread (or a chosen method), the frames' values are written
 * to crashN/frameK.ser and what weft needs to write the tests to
 * crashN/crash.json. The advice runs with the per-thread bypass set, so
 * none of this is itself recorded.
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

    /** A thread's shadow stack: frame d in ids[d], parts[d], selves[d], args[d] (1-based). */
    static final class State {
        int depth;
        int[] ids = new int[64];
        JoinPointStaticPart[] parts = new JoinPointStaticPart[64];
        Object[] selves = new Object[64];
        Object[][] args = new Object[64][];
        /** The last exception seen thrown and the stack where it was. */
        Throwable thrown;
        Snapshot snapshot;
        /** The exception last saved, saved once. */
        Throwable saved;
    }

    /** The frames at a throw point, innermost first. */
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

    static final String OUT = setting("recrash.out", "WEFT_RECRASH_OUT", "weft-recrash");
    static final int MAX_STACK = Integer.parseInt(setting("recrash.maxStack", "WEFT_RECRASH_MAX_STACK", "10000"));
    static final int FRAMES = Integer.parseInt(setting("recrash.frames", "WEFT_RECRASH_FRAMES", "50"));
    static final String METHOD = setting("recrash.method", "WEFT_RECRASH_METHOD", "");
    static final Copier COPIER = new Copier(
            Integer.parseInt(setting("recrash.depth", "WEFT_RECRASH_DEPTH", "0")),
            Integer.parseInt(setting("recrash.maxElements", "WEFT_RECRASH_MAX_ELEMENTS", "1000")),
            Integer.parseInt(setting("recrash.maxObjects", "WEFT_RECRASH_MAX_OBJECTS", "1000")));
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

    /** Pushes the frame of execution join point id: its receiver and arguments, copied. */
    public static void enter(int id, JoinPoint jp) {
        State s = state();
        int d = ++s.depth;
        if (d >= MAX_STACK) return;
        if (d == s.ids.length) grow(s);
        JoinPointStaticPart sp = jp.getStaticPart();
        Object[] args = jp.getArgs();
        // A constructor's object is not needed to call it again.
        Object self = sp.getKind().charAt(0) == 'c' ? null : jp.getThis();
        s.ids[d] = id;
        s.parts[d] = sp;
        s.selves[d] = COPIER.copy(self, args);
        s.args[d] = args;
    }

    private static void grow(State s) {
        int n = s.ids.length * 2;
        s.ids = java.util.Arrays.copyOf(s.ids, n);
        s.parts = java.util.Arrays.copyOf(s.parts, n);
        s.selves = java.util.Arrays.copyOf(s.selves, n);
        s.args = java.util.Arrays.copyOf(s.args, n);
    }

    /** Pops the frame of join point id, which returned. */
    public static void exit(int id) {
        pop(state(), id);
    }

    /** Pops the frame of join point id, which t is leaving; keeps the stack if t is new. */
    public static void thrown(int id, Throwable t) {
        State s = state();
        int d = s.depth;
        if (d == 0 || d < MAX_STACK && s.ids[d] != id) return; // an exit whose entry was not seen
        if (s.thrown != t) {
            s.thrown = t;
            s.snapshot = snapshot(s);
        }
        if (!METHOD.isEmpty() && d < MAX_STACK && s.saved != t && METHOD.equals(name(s.parts[d]))) {
            s.saved = t;
            save(s.snapshot, t, "escaped " + METHOD);
        }
        pop(s, id);
    }

    private static void pop(State s, int id) {
        int d = s.depth;
        if (d == 0) return;
        if (d < MAX_STACK) {
            if (s.ids[d] != id) return;
            s.parts[d] = null;
            s.selves[d] = null;
            s.args[d] = null;
        }
        s.depth = d - 1;
    }

    private static Snapshot snapshot(State s) {
        int top = Math.min(s.depth, MAX_STACK - 1);
        int n = Math.min(top, FRAMES);
        JoinPointStaticPart[] parts = new JoinPointStaticPart[n];
        Object[] selves = new Object[n];
        Object[][] args = new Object[n][];
        for (int i = 0; i < n; i++) {
            parts[i] = s.parts[top - i];
            selves[i] = s.selves[top - i];
            args[i] = s.args[top - i];
        }
        return new Snapshot(parts, selves, args, s.depth - top);
    }

    /** Saves the stack where e was thrown: e is escaping the current thread. */
    public static void uncaught(Throwable e) {
        State s = state();
        if (s.saved == e) return;
        s.saved = e;
        Snapshot sn = null;
        for (Throwable c = e; c != null && sn == null; c = c.getCause() == c ? null : c.getCause()) {
            if (c == s.thrown) sn = s.snapshot;
        }
        save(sn, e, "escaped thread \"" + Thread.currentThread().getName() + "\"");
    }

    /** "pkg.Class.name" of a static part. */
    private static String name(JoinPointStaticPart sp) {
        return sp.getDeclaringTypeName() + "." + sp.getName();
    }

    private static synchronized void save(Snapshot sn, Throwable e, String why) {
        try {
            Path dir = Paths.get(OUT).toAbsolutePath().resolve("crash" + ++crashes);
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
