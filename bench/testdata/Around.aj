// The around advice of around.weft, for ajc: count, then proceed once.
public aspect Around {
    Object around(): (execution(* work..*.*(..)) && !execution(* main(..)) || call(work..*.new(..))) && within(work..*) {
        weft.tools.count.Counter.hit(thisJoinPointStaticPart.getId());
        return proceed();
    }
}
