public aspect Diff {
    before(): execution(* *(..)) && !within(Diff) { diffadv.Counter.a(); }
    after() returning: execution(new(..)) && !within(Diff) { diffadv.Counter.b(); }
    after() throwing: call(* java.util..*.*(..)) && !within(Diff) { diffadv.Counter.c(); }
    after(): call(org.apache..*.new(..)) && !within(Diff) { diffadv.Counter.d(); }
    before(): call(*[].new(..)) && !within(Diff) { diffadv.Counter.e(); }
    before(String s): execution(* *(..)) && args(s, ..) && !within(Diff) { diffadv.Counter.f(s); }
}
