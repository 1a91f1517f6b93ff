package weft.at;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.Signature;
import org.aspectj.lang.reflect.SourceLocation;

/** The org.aspectj.lang view of a weft thisJoinPoint. */
class JP implements JoinPoint {
    final Part part;
    final weft.rt.JoinPoint jp;

    JP(Part part, weft.rt.JoinPoint jp) {
        this.part = part;
        this.jp = jp;
        part.seen(jp.getThis(), jp.getTarget());
    }

    @Override
    public Object getThis() { return jp.getThis(); }

    @Override
    public Object getTarget() { return jp.getTarget(); }

    /** A copy of the arguments, primitives boxed. */
    @Override
    public Object[] getArgs() { return jp.getArgs(); }

    @Override
    public Signature getSignature() { return part.getSignature(); }

    @Override
    public SourceLocation getSourceLocation() { return part.getSourceLocation(); }

    @Override
    public String getKind() { return part.getKind(); }

    @Override
    public StaticPart getStaticPart() { return part; }

    @Override
    public String toString() { return jp.toString(); }

    @Override
    public String toShortString() { return jp.toShortString(); }

    @Override
    public String toLongString() { return jp.toLongString(); }
}
