// The thisJoinPoint differential test's aspect for ajc (tjp.weft is weft's).
aspect Tjp {
    pointcut all(): (call(* *(..)) || execution(* *(..)) || call(*.new(..)) || execution(*.new(..))
        || call(*[].new(..)) || call(*[][].new(..))) && within(app..*) && !execution(String *.toString());

    before(): all() { tjpadv.Print.before(thisJoinPoint); }
    after(): all() { tjpadv.Print.after(thisJoinPoint); }
}
