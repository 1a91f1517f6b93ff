package demo.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.AfterThrowing;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.DeclarePrecedence;
import org.aspectj.lang.annotation.Pointcut;

/** Traces demo's methods: every kind of advice, as AspectJ prints them. */
@Aspect
@DeclarePrecedence("demo.aspects.Trace, demo.aspects.PerMain, demo.aspects.PerFlow, *, demo.aspects.Counting")
public class Trace {
    private int calls;

    @Pointcut("execution(* demo.Main.*(..)) && !execution(* demo.Main.main(..))")
    public void work() {}

    @Pointcut("call(int demo.Main.add(String, int)) && args(name, times)")
    public void adding(String name, int times) {}

    @Around("execution(int demo.Main.square(int)) && args(x)")
    public Object twice(ProceedingJoinPoint pjp, int x) throws Throwable {
        Object first = pjp.proceed();
        Object second = pjp.proceed(new Object[] {x + 1});
        System.out.println("around " + pjp.getKind() + " " + first + " " + second);
        return (Integer) first + (Integer) second;
    }

    @Before("work()")
    public void enter(JoinPoint jp) {
        calls++;
        System.out.println("before " + jp + " args " + java.util.Arrays.toString(jp.getArgs()) + " [" + jp.getSignature().getDeclaringTypeName() + "]");
    }

    @Before("adding(name, times)")
    public void adding(String name, int times, JoinPoint.StaticPart sp) {
        System.out.println("adding " + name + " x" + times + " at " + sp.toShortString() + " " + sp.getSourceLocation().getLine());
    }

    @Pointcut("execution(* demo.Main.*(String, ..)) && if()")
    public static boolean chosen(JoinPoint jp) {
        Object first = jp.getArgs()[0];
        return "d".equals(first) || "on purpose".equals(first);
    }

    @Before("chosen()")
    public void beforeChosen(JoinPoint.StaticPart sp) {
        System.out.println("if() chose " + sp.toShortString());
    }

    @AfterReturning(pointcut = "work()", returning = "result")
    public void returned(JoinPoint jp, Object result) {
        System.out.println("returned " + jp.toShortString() + " -> " + result);
    }

    @AfterThrowing(pointcut = "work()", throwing = "e")
    public void threw(JoinPoint jp, RuntimeException e) {
        System.out.println("threw " + jp.toLongString() + ": " + e.getMessage());
    }

    @After("execution(void demo.Main.fail(String))")
    public void afterFail() {
        System.out.println("after fail, calls so far " + calls);
    }
}
