import aradv.Count;

// TestAroundAgainstAspectJ's aspect for ajc; around.weft is the same for weft.
aspect Around {
    after() returning: execution(int app.Main.twice(int)) { Count.hit("a-in"); }
    before(): execution(int app.Main.twice(int)) { Count.hit("b-out"); }
    int around(int x): execution(int app.Main.twice(int)) && args(x) { Count.hit("twice"); return proceed(x) + proceed(x + 1); }
    before(): execution(int app.Main.twice(int)) { Count.hit("b-in"); }
    after() returning: execution(int app.Main.twice(int)) { Count.hit("a-out"); }
    String around(String s): call(String app.Main.greet(String)) && args(s) { Count.hit("greet"); return proceed(s.toUpperCase()) + "!"; }
    int around(): call(int app.Main.skip(int)) { Count.hit("skip"); return -1; }
    int around(): execution(int app.Main.fact(int)) { Count.hit("fact"); return proceed(); }
    void around(): execution(void app.Main.log(String)) { Count.hit("log"); proceed(); proceed(); }
    void around(): execution(void app.Main.log(String)) { Count.hit("log2"); proceed(); }
    Object around(): call(int app.Main.nullInt()) { Count.hit("nullInt"); return null; }
    Object around(): call(String app.Main.str()) { Count.hit("str"); return Integer.valueOf(1); }
    Object around(int x, int y): call(app.Point.new(int, int)) && args(x, y) { Count.hit("point"); return proceed(x + 10, y); }
    Object around(int n): call(int[].new(int)) && args(n) && within(app..*) { Count.hit("array"); return proceed(n * 2); }
    int around(): get(int app.Main.f) { Count.hit("get"); return proceed() + 1000; }
    void around(int v): set(int app.Main.f) && args(v) { Count.hit("set"); proceed(v * 3); }
    int around(): get(static int app.Main.sf) { Count.hit("sget"); return 42; }
    int around(app.Box b): call(int app.Box.get()) && target(b) { Count.hit("box"); return proceed(new app.Box(99)); }
    long around(long a, double b): call(long app.Main.big(long, double)) && args(a, b) { Count.hit("big"); return proceed(a * 2, b * 2) + 1; }
    int around(int x): call(int app.Main.thrower(int)) && args(x) {
        Count.hit("thrower");
        try { return proceed(x); } catch (IllegalStateException e) { return proceed(-x); }
    }
    int around(): call(int app.Main.two(int)) { Count.hit("two1"); return proceed() + 1; }
    int around(int x): call(int app.Main.two(int)) && args(x) { Count.hit("two2"); return proceed(x * 10) + proceed(x); }
    Object around(String s): call(Object app.Main.id(Object)) && args(s) { Count.hit("id"); return proceed(s + s); }
}
