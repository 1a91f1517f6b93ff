public aspect FieldDiff {
    before(): get(* *) && within(org.apache.commons.lang3.builder..*) { diffadv.FieldCounter.a(); }
    after() returning: set(* *) && within(org.apache.commons.lang3.text..*) { diffadv.FieldCounter.b(); }
    after() throwing: get(!static * org.apache.commons.lang3..*.*) && within(org.apache.commons.lang3.text..*) { diffadv.FieldCounter.c(); }
    after() returning(Object v): (get(static * *) || set(static * *)) && within(org.apache.commons.lang3.time..*) { diffadv.FieldCounter.d(); }
    before(): (get(* java..*.*) || set(final * *)) && within(org.apache.commons.lang3..*) { diffadv.FieldCounter.e(); }
    before(String s): set(* *) && args(s) && within(org.apache.commons.lang3..*) { diffadv.FieldCounter.f(s); }
}
