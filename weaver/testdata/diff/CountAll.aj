public aspect CountAll {
    before(): (execution(* *(..)) || execution(new(..))) && !within(CountAll) { diffadv.Counter.a(); }
    after() returning: call(* java.util..*.*(..)) && !within(CountAll) { diffadv.Counter.b(); }
}
