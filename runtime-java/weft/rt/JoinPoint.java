package weft.rt;

/**
 * thisJoinPoint: a join point's static part and its dynamic values, the
 * executing object, the target and the arguments, as AspectJ's
 * org.aspectj.lang.JoinPoint gives them.
 *
 * <p>Woven code makes one only for advice that passes thisJoinPoint, in the
 * advice's helper, once its runtime test has passed: other advice pays
 * nothing, and the object is left for escape analysis when the advice does
 * not keep it.
 */
public final class JoinPoint {
    private final JoinPointStaticPart staticPart;
    private final Object thisObject;
    private final Object target;
    private final Object[] args;

    private JoinPoint(JoinPointStaticPart staticPart, Object thisObject, Object target, Object[] args) {
        this.staticPart = staticPart;
        this.thisObject = thisObject;
        this.target = target;
        this.args = args;
    }

    /**
     * Makes the join point woven helpers pass to advice; args holds the
     * join point's arguments, primitives boxed (the array is not copied).
     */
    public static JoinPoint make(JoinPointStaticPart staticPart, Object thisObject, Object target, Object[] args) {
        return new JoinPoint(staticPart, thisObject, target, args);
    }

    /**
     * The executing object: null in static code, and for a call in a
     * constructor before its super(...) or this(...) call.
     */
    public Object getThis() { return thisObject; }

    /**
     * The target: a call's target object (null for a static method, a
     * constructor call and array construction); for an execution, the
     * executing object.
     */
    public Object getTarget() { return target; }

    /**
     * A copy of the arguments, primitives boxed: a call's arguments, the
     * parameters of an execution as they were on entry, an array
     * construction's dimension sizes.
     */
    public Object[] getArgs() { return args.clone(); }

    /** The static part: what is known of the join point at weave time. */
    public JoinPointStaticPart getStaticPart() { return staticPart; }

    /** The kind, e.g. "method-call" (see JoinPointStaticPart.getKind). */
    public String getKind() { return staticPart.getKind(); }

    /** The member's signature, in AspectJ's forms. */
    public Signature getSignature() { return staticPart.aspectJSignature(); }

    /** "file:line" of the join point, as AspectJ's SourceLocation prints it. */
    public String getSourceLocation() { return staticPart.getSourceLocation(); }

    /** As AspectJ: e.g. "call(String demo.A.m(int, List))". */
    @Override
    public String toString() { return staticPart.format(Signature.MIDDLE); }

    /** As AspectJ: e.g. "call(A.m(..))". */
    public String toShortString() { return staticPart.format(Signature.SHORT); }

    /** As AspectJ: e.g. "call(public java.lang.String demo.A.m(int, java.util.List))". */
    public String toLongString() { return staticPart.format(Signature.LONG); }
}
