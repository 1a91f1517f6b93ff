public aspect Overrides {
    before(): execution(* java.util..*.*(..)) && !within(Overrides) { diffadv.Counter.a(); }
    before(): execution(* org.apache.commons.collections4.map..*.*(..)) && !within(Overrides) { diffadv.Counter.b(); }
    after() returning: call(* org.apache.commons.collections4.map..*.*(..)) && !within(Overrides) { diffadv.Counter.c(); }
    after() returning: call(* java.util.Map+.*(..)) && !within(Overrides) { diffadv.Counter.d(); }
}
