package aradv;

import weft.rt.Proceed;

// weft's advice methods for around.weft: the bodies of Around.aj's advice.
public class Adv {
    public static void hit(String name) { Count.hit(name); }
    public static void bOut() { Count.hit("b-out"); }
    public static void bIn() { Count.hit("b-in"); }
    public static void aOut() { Count.hit("a-out"); }
    public static void aIn() { Count.hit("a-in"); }

    public static int twice(Proceed p, int x) throws Throwable {
        Count.hit("twice");
        return (Integer) p.proceed(x) + (Integer) p.proceed(x + 1);
    }

    public static String greet(Proceed p, String s) throws Throwable {
        Count.hit("greet");
        return p.proceed(s.toUpperCase()) + "!";
    }

    public static int skip(Proceed p) {
        Count.hit("skip");
        return -1;
    }

    public static int fact(Proceed p) throws Throwable {
        Count.hit("fact");
        return (Integer) p.proceed();
    }

    public static void log(Proceed p) throws Throwable {
        Count.hit("log");
        p.proceed();
        p.proceed();
    }

    public static void log2(Proceed p) throws Throwable {
        Count.hit("log2");
        p.proceed();
    }

    public static Object nullInt(Proceed p) {
        Count.hit("nullInt");
        return null;
    }

    public static Object str(Proceed p) {
        Count.hit("str");
        return Integer.valueOf(1);
    }

    public static Object point(Proceed p, int x, int y) throws Throwable {
        Count.hit("point");
        return p.proceed(x + 10, y);
    }

    public static Object array(Proceed p, int n) throws Throwable {
        Count.hit("array");
        return p.proceed(n * 2);
    }

    public static int get(Proceed p) throws Throwable {
        Count.hit("get");
        return (Integer) p.proceed() + 1000;
    }

    public static void set(Proceed p, int v) throws Throwable {
        Count.hit("set");
        p.proceed(v * 3);
    }

    public static int sget(Proceed p) {
        Count.hit("sget");
        return 42;
    }

    public static int box(Proceed p, app.Box b) throws Throwable {
        Count.hit("box");
        return (Integer) p.proceedOn(new app.Box(99));
    }

    public static long big(Proceed p, long a, double b) throws Throwable {
        Count.hit("big");
        return (Long) p.proceed(a * 2, b * 2) + 1;
    }

    public static int thrower(Proceed p, int x) throws Throwable {
        Count.hit("thrower");
        try {
            return (Integer) p.proceed(x);
        } catch (IllegalStateException e) {
            return (Integer) p.proceed(-x);
        }
    }

    public static int two1(Proceed p) throws Throwable {
        Count.hit("two1");
        return (Integer) p.proceed() + 1;
    }

    public static int two2(Proceed p, int x) throws Throwable {
        Count.hit("two2");
        return (Integer) p.proceed(x * 10) + (Integer) p.proceed(x);
    }

    public static Object id(Proceed p, String s) throws Throwable {
        Count.hit("id");
        return p.proceed(s + s);
    }

    public static void never(Proceed p) {
        throw new AssertionError("woven");
    }

    public static Object neverObject(Proceed p) {
        throw new AssertionError("woven");
    }
}
