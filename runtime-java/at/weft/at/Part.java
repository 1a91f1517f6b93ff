package weft.at;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.Signature;
import org.aspectj.lang.reflect.SourceLocation;
import weft.rt.JoinPointStaticPart;

/**
 * The org.aspectj.lang view of a weft static part, as both
 * JoinPoint.StaticPart and JoinPoint.EnclosingStaticPart (AspectJ's
 * enclosing part is a static part too). One per weft part (AJ.part).
 */
final class Part implements JoinPoint.EnclosingStaticPart {
    final JoinPointStaticPart part;
    private final String kind;
    private final Sig signature;
    private final Location location = new Location();
    /** AspectJ's middle form, which weft.rt.JoinPoint writes. */
    private final String string;
    /**
     * The loader of the first join point's this or target here, which
     * most likely sees the types the part names; null until one is known.
     * Written racily: any loader seen here is as good.
     */
    private volatile ClassLoader hint;

    Part(JoinPointStaticPart part) {
        this.part = part;
        // AspectJ has no array-construction kind: ajc makes array
        // construction a constructor call (whose form weft's strings use).
        String k = part.getKind();
        this.kind = k.equals("array-construction") ? JoinPoint.CONSTRUCTOR_CALL : k;
        // weft.rt.JoinPoint gives the part's AspectJ signature and middle
        // form publicly; a join point with no values is only a means to them.
        weft.rt.JoinPoint probe = weft.rt.JoinPoint.make(part, null, null, new Object[0]);
        this.string = probe.toString();
        this.signature = Sig.of(this, probe.getSignature());
    }

    /** Records the loader of a join point's this or target, the first seen. */
    void seen(Object thisObject, Object target) {
        if (hint == null) {
            ClassLoader l = AJ.loaderOf(thisObject);
            if (l == null) {
                l = AJ.loaderOf(target);
            }
            if (l != null) {
                hint = l;
            }
        }
    }

    /** The class named name, as AJ.type resolves it from this part's hint. */
    Class<?> type(String name) {
        return AJ.type(name, hint);
    }

    @Override
    public int getId() { return part.getId(); }

    /** The kind as AspectJ names it: array construction is "constructor-call". */
    @Override
    public String getKind() { return kind; }

    @Override
    public Signature getSignature() { return signature; }

    @Override
    public SourceLocation getSourceLocation() { return location; }

    @Override
    public String toString() { return string; }

    @Override
    public String toShortString() { return part.toShortString(); }

    @Override
    public String toLongString() { return part.toLongString(); }

    /** The part's source location, whose string is AspectJ's "file:line". */
    private final class Location implements SourceLocation {
        /** The type whose code holds the join point, null if no loader sees it. */
        @Override
        public Class<?> getWithinType() { return type(part.getWithinTypeName()); }

        /** The source file, null without debug information. */
        @Override
        public String getFileName() { return part.getSourceFile(); }

        @Override
        public int getLine() { return part.getLine(); }

        /** -1: unknown, as in AspectJ. */
        @Override
        public int getColumn() { return -1; }

        @Override
        public String toString() { return part.getSourceLocation(); }
    }
}
