public aspect Diff {
    before(): execution(* *(..)) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.a(); }
    after() returning: execution(new(..)) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.b(); }
    after() throwing: call(* java.util..*.*(..)) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.c(); }
    after(): call(org.apache..*.new(..)) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.d(); }
    before(): call(*[].new(..)) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.e(); }
    before(String s): execution(* *(..)) && args(s, ..) && !within(Diff || FieldDiff || KindsDiff) { diffadv.Counter.f(s); }
}
