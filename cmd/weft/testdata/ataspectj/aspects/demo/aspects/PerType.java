package demo.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/** An instance per type of demo.Main's: pertypewithin. */
@Aspect("pertypewithin(demo.Main)")
public class PerType {
    private static int made;
    private final int id = ++made;
    private int runs;

    @Before("execution(static int demo..*.square(int))")
    public void square(JoinPoint jp) {
        System.out.println("pertypewithin: instance " + id + ", run " + ++runs + " of " + jp.getSignature().toShortString());
    }
}
