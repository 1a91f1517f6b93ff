public aspect CflowDiff {
    pointcut inLib(): within(org.apache.commons.lang3..*);
    before(): call(* java.lang.String.*(..)) && cflow(execution(* org.apache.commons.lang3.StringUtils.*(..))) && inLib() { diffadv.CflowCounter.a(); }
    before(): execution(* org.apache.commons.lang3..*.*(..)) && cflowbelow(execution(* org.apache.commons.lang3.StringUtils.*(..))) { diffadv.CflowCounter.b(); }
    before(): execution(* org.apache.commons.lang3.text..*.*(..)) && !cflow(execution(* org.apache.commons.lang3.text.StrTokenizer.next())) { diffadv.CflowCounter.c(); }
    before(String s): execution(* org.apache.commons.lang3.StringUtils.*(String, ..)) && args(s, ..) && if(diffadv.CflowCounter.yes(s)) { diffadv.CflowCounter.d(); }
    after() throwing: call(* *(..)) && cflowbelow(execution(* org.apache.commons.lang3.math.NumberUtils.*(..))) && inLib() { diffadv.CflowCounter.e(); }
    before(String s): execution(* org.apache.commons.lang3..*.*(..)) && cflow(execution(* org.apache.commons.lang3.StringUtils.*(String, ..)) && args(s, ..)) { diffadv.CflowCounter.f(s); }
}
