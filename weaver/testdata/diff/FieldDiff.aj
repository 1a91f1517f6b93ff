public aspect FieldDiff {
    before(): get(* *) && within(org.apache.commons.lang3.builder..*) { diffadv.Counter.a(); }
    after() returning: set(* *) && within(org.apache.commons.lang3.text..*) { diffadv.Counter.b(); }
    after() throwing: get(!static * org.apache.commons.lang3..*.*) && within(org.apache.commons.lang3.text..*) { diffadv.Counter.c(); }
    after() returning(Object v): (get(static * *) || set(static * *)) && within(org.apache.commons.lang3.time..*) { diffadv.Counter.d(); }
    before(): (get(* java..*.*) || set(final * *)) && within(org.apache.commons.lang3..*) { diffadv.Counter.e(); }
    before(String s): set(* *) && args(s) && within(org.apache.commons.lang3..*) { diffadv.Counter.f(s); }
}
