public aspect KindsDiff {
    before(): handler(*) && within(org.apache.commons.lang3..*) { diffadv.Counter.a(); }
    before(): staticinitialization(org.apache.commons.lang3..*) { diffadv.Counter.b(); }
    before(): preinitialization(org.apache.commons.lang3..*.new(..)) { diffadv.Counter.c(); }
    after() returning: initialization(org.apache.commons.lang3..*.new(..)) { diffadv.Counter.d(); }
    after(Object o) throwing: initialization(org.apache.commons.lang3.text..*.new(..)) && this(o) { diffadv.Counter.e(); }
    before(String s): (handler(Exception+) || preinitialization(*.new(String, ..))) && args(s, ..) && !within(java.lang.Enum+) { diffadv.Counter.f(s); }
}
