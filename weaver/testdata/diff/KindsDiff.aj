public aspect KindsDiff {
    before(): handler(*) && within(org.apache.commons.lang3..*) { diffadv.KindsCounter.a(); }
    before(): staticinitialization(org.apache.commons.lang3..*) { diffadv.KindsCounter.b(); }
    before(): preinitialization(org.apache.commons.lang3..*.new(..)) { diffadv.KindsCounter.c(); }
    after() returning: initialization(org.apache.commons.lang3..*.new(..)) { diffadv.KindsCounter.d(); }
    after(Object o) throwing: initialization(org.apache.commons.lang3.text..*.new(..)) && this(o) { diffadv.KindsCounter.e(); }
    before(String s): (handler(Exception+) || preinitialization(*.new(String, ..))) && args(s, ..) && !within(java.lang.Enum+) { diffadv.KindsCounter.f(s); }
}
