public aspect Cflows {
    pointcut fibs(): execution(int app.Cf.fib(int));
    before(): fibs() && cflowbelow(fibs()) && !within(Cflows) { cfadv.Cnt.a(); }
    before(): execution(int app.Cf.leaf(int)) && cflow(fibs()) && !within(Cflows) { cfadv.Cnt.b(); }
    before(int n): execution(int app.Cf.leaf(int)) && cflow(execution(int app.Cf.nest(int)) && args(n)) && !within(Cflows) { cfadv.Cnt.c(n); }
    before(): execution(static void app.Cf.outside()) && cflow(execution(static void app.Cf.thrower(int))) && !within(Cflows) { cfadv.Cnt.d(); }
    before(): execution(static void app.Cf.outside()) && cflow(execution(void app.Cf.spawn())) && !within(Cflows) { cfadv.Cnt.e(); }
    before(int n): fibs() && args(n) && if(cfadv.Cnt.even(n)) && !within(Cflows) { cfadv.Cnt.f(); }
    before(): call(int app.Cf.leaf(int)) && cflow(call(int app.Cf.nest(int))) && !within(Cflows) { cfadv.Cnt.g(); }
    before(): call(int app.Cf.nest(int)) && cflowbelow(call(int app.Cf.nest(int))) && !within(Cflows) { cfadv.Cnt.h(); }
    before(): fibs() && cflow(fibs()) && !within(Cflows) { cfadv.Cnt.i(); }
    after() throwing: execution(static void app.Cf.thrower(int)) && cflowbelow(execution(static void app.Cf.thrower(int))) && !within(Cflows) { cfadv.Cnt.j(); }
    before(int d, app.Cf c): execution(static void app.Cf.outside()) && cflow(execution(void app.Cf.run2(int)) && args(d) && this(c)) && !within(Cflows) { cfadv.Cnt.k(d, c); }
    before(): execution(static void app.Cf.outside()) && cflow(execution(void app.Cf.run2(int)) && cflowbelow(execution(void app.Cf.run2(int)))) && !within(Cflows) { cfadv.Cnt.l(); }
    before(): execution(static void app.Cf.outside()) && cflow(execution(app.Cf.new())) && !within(Cflows) { cfadv.Cnt.m(); }
}
