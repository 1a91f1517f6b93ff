package demo.aspects;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Pointcut;

/** AbstractCounting on demo's code. */
@Aspect
public class Counting extends AbstractCounting {
    @Pointcut("within(demo..*)")
    protected void scope() {}
}
