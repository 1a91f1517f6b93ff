package demo.jdk;

import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Pointcut;

/** Says which concrete aspect it is when main returns; aop.xml defines it. */
@Aspect
public abstract class AbstractMain {
    @Pointcut
    protected abstract void scope();

    @AfterReturning("scope() && execution(static void main(String[]))")
    public void done() {
        System.out.println("concrete aspect " + getClass().getName() + " of " + getClass().getClassLoader().getClass().getSimpleName());
    }
}
