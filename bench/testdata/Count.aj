// The counting aspect of count.weft, for ajc.
public aspect Count {
    before(): (execution(* *(..)) || execution(new(..))) && !within(Count) && within(work..*) && !execution(* main(..)) {
        weft.tools.count.Counter.hit(thisJoinPointStaticPart.getId());
    }
}
