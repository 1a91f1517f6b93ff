public aspect Diff {
    before(): execution(* *(..)) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.a(); }
    after() returning: execution(new(..)) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.b(); }
    after() throwing: call(* java.util..*.*(..)) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.c(); }
    after(): call(org.apache..*.new(..)) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.d(); }
    before(): call(*[].new(..)) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.e(); }
    before(String s): execution(* *(..)) && args(s, ..) && !within(Diff || FieldDiff || KindsDiff || CflowDiff) { diffadv.Counter.f(s); }
}
