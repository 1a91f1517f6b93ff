package weft.at;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.runtime.internal.AroundClosure;
import weft.rt.Proceed;

/** The org.aspectj.lang view of around advice's thisJoinPoint and proceed. */
final class PJP extends JP implements ProceedingJoinPoint {
    private final Proceed proceed;

    PJP(Part part, weft.rt.JoinPoint jp, Proceed proceed) {
        super(part, jp);
        this.proceed = proceed;
    }

    /** Runs the rest of the join point with its values. */
    @Override
    public Object proceed() throws Throwable {
        return proceed.proceed();
    }

    /**
     * Runs the rest of the join point with new values. AspectJ's array
     * holds what the advice bound with this(), then target(), then the
     * join point's arguments (pr126167); weft does not know which the
     * pointcut bound, so it goes by the length: the arguments alone; one
     * more, the new target first; two more, this then the target. A new
     * this is dropped (proceed cannot change a caller), and so is the
     * first extra at a join point without a target, where it can only be
     * this. So a call whose advice binds this() but not target() passes
     * the caller where weft reads a new target.
     */
    @Override
    public Object proceed(Object[] args) throws Throwable {
        if (args == null) {
            throw new IllegalArgumentException("proceed: null arguments array");
        }
        int n = jp.getArgs().length;
        int extra = args.length - n;
        if (extra < 0 || extra > 2) {
            throw Proceed.arity(n, args.length);
        }
        if (extra == 0) {
            return proceed.proceed(args);
        }
        Object[] rest = new Object[n];
        System.arraycopy(args, extra, rest, 0, n);
        if (jp.getTarget() == null) {
            return proceed.proceed(rest);
        }
        return proceed.proceedOn(args[extra - 1], rest);
    }

    /** Unsupported: weft's proceed is not an AspectJ closure. */
    @Override
    public void set$AroundClosure(AroundClosure arc) {
        throw new UnsupportedOperationException("weft: set$AroundClosure: not an ajc-woven join point");
    }

    /** Unsupported: weft's proceed is not an AspectJ closure. */
    @Override
    public void stack$AroundClosure(AroundClosure arc) {
        throw new UnsupportedOperationException("weft: stack$AroundClosure: not an ajc-woven join point");
    }
}
