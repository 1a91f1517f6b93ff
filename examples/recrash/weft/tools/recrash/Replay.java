package weft.tools.recrash;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the tests weft recrash writes call: load a frame's receiver and
 * arguments, call the frame's member again, and check that it throws the
 * exception of the crash from the same method. Also runs tests for weft
 * ({@link #main}).
 */
public final class Replay {
    private Replay() {}

    /** A call of the member under test. */
    public interface Call {
        void run() throws Throwable;
    }

    /**
     * The receiver (null for static members and constructors) and the
     * arguments saved in file, classes loaded by test's loader.
     */
    public static Object[] load(Class<?> test, String file) throws IOException, ClassNotFoundException {
        try (InputStream in = Files.newInputStream(Paths.get(file));
                Rebuilt.Input r = new Rebuilt.Input(in, test.getClassLoader())) {
            return (Object[]) r.readObject();
        }
    }

    /**
     * Runs call and checks that it throws an exception of class exception
     * (by name) whose innermost frame is in method thrownAt
     * ("pkg.Class.name"), as the crash's did.
     */
    public static void expect(String exception, String thrownAt, Call call) {
        Throwable t = null;
        try {
            call.run();
        } catch (InvocationTargetException e) {
            t = e.getCause();
        } catch (Throwable e) {
            t = e;
        }
        if (t == null) throw new AssertionError("no exception; the crash threw " + exception + " in " + thrownAt);
        StackTraceElement[] st = t.getStackTrace();
        String at = st.length > 0 ? st[0].getClassName() + "." + st[0].getMethodName() : "";
        if (!t.getClass().getName().equals(exception) || !at.equals(thrownAt)) {
            throw new AssertionError("threw " + t + " in " + at + "; the crash threw " + exception + " in " + thrownAt, t);
        }
    }

    /**
     * Calls a member by reflection (one not public, or in a class the test
     * cannot name): owner's name, its name ("&lt;init&gt;" for a
     * constructor) and parameter types as the crash recorded them.
     */
    public static Object invoke(Class<?> test, String owner, String name, String[] params, Object self, Object[] args)
            throws Throwable {
        ClassLoader l = test.getClassLoader();
        Class<?> c = Class.forName(owner, false, l);
        Class<?>[] types = new Class<?>[params.length];
        for (int i = 0; i < params.length; i++) types[i] = type(params[i], l);
        AccessibleObject m = name.equals("<init>") ? c.getDeclaredConstructor(types) : c.getDeclaredMethod(name, types);
        m.setAccessible(true);
        if (m instanceof Constructor) return ((Constructor<?>) m).newInstance(args);
        return ((Method) m).invoke(self, args);
    }

    private static Class<?> type(String name, ClassLoader l) throws ClassNotFoundException {
        if (name.endsWith("[]")) return Array.newInstance(type(name.substring(0, name.length() - 2), l), 0).getClass();
        switch (name) {
            case "int": return int.class;
            case "long": return long.class;
            case "boolean": return boolean.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "short": return short.class;
            case "float": return float.class;
            case "double": return double.class;
        }
        return Class.forName(name, false, l);
    }

    /**
     * Runs the tests named (classes with a static reproduce() method), each
     * at most TIMEOUT_MS, and prints "start C" then "pass C" or "fail C:
     * why", one a line, to standard output; the tests' own output goes to
     * standard error. Exits when done, whatever threads they left.
     */
    public static void main(String[] tests) throws Exception {
        PrintStream out = System.out;
        System.setOut(System.err);
        long timeout = Long.getLong("recrash.timeout", 20000);
        for (String name : tests) {
            out.println("start " + name);
            out.flush();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    Class.forName(name).getDeclaredMethod("reproduce").invoke(null);
                } catch (InvocationTargetException e) {
                    failure.set(e.getCause());
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "recrash-test");
            t.setDaemon(true);
            t.start();
            t.join(timeout);
            Throwable f = failure.get();
            if (t.isAlive()) {
                out.println("fail " + name + ": still running after " + timeout + " ms");
            } else if (f != null) {
                out.println("fail " + name + ": " + String.valueOf(f).replace('\n', ' '));
            } else {
                out.println("pass " + name);
            }
            out.flush();
        }
        System.exit(0);
    }
}
