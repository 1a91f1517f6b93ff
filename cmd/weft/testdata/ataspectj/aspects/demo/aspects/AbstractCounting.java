package demo.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.Pointcut;

/** Counts the list additions its concrete aspect's scope() selects. */
@Aspect
public abstract class AbstractCounting {
    private int adds;

    @Pointcut
    protected abstract void scope();

    @Before("scope() && call(* java.util.List.add(..))")
    public void add(JoinPoint.StaticPart sp) {
        adds++;
    }

    @After("execution(void demo.Main.main(String[]))")
    public void report() {
        System.out.println(getClass().getSimpleName() + ": list adds " + adds);
    }
}
