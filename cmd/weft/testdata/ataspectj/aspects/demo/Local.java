package demo;

import org.aspectj.lang.Aspects;
import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;

/** Names Main as Java code of its package does: by its simple name. */
@Aspect
public class Local {
    @AfterReturning(pointcut = "execution(static int Main.square(int))", returning = "r")
    public void squared(int r) {
        System.out.println("same package: square returned " + r + ", aspectOf " + (Aspects.aspectOf(Local.class) == this)
                + ", hasAspect " + Aspects.hasAspect(Local.class));
    }
}
