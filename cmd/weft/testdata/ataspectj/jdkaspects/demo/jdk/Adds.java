package demo.jdk;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * Counts ArrayList.add's executions under demo.Main.add: join points in the
 * JDK, which AspectJ's load-time weaver never weaves.
 */
@Aspect
public class Adds {
    private int adds;
    private String last;

    @Before("execution(boolean java.util.ArrayList.add(Object)) && cflow(execution(int demo.Main.add(..))) && args(o)")
    public void add(JoinPoint jp, Object o) {
        adds++;
        last = jp.getSignature().toLongString() + " of " + o;
    }

    @After("execution(void demo.Main.main(String[]))")
    public void report() {
        System.out.println("ArrayList.add under Main.add: " + adds + ", the last " + last);
    }
}
