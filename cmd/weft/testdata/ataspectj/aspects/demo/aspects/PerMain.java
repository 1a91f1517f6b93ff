package demo.aspects;

import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;

/** An instance per Main that adds: perthis. */
@Aspect("perthis(execution(* demo.Main.add(..)))")
public class PerMain {
    private static int made;
    private final int id = ++made;
    private int calls;

    @AfterReturning(pointcut = "execution(* demo.Main.add(..))", returning = "n")
    public void added(int n) {
        System.out.println("perthis: instance " + id + ", call " + ++calls + ", size " + n);
    }
}
