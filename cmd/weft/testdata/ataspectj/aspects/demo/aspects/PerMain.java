package demo.aspects;

import org.aspectj.lang.Aspects;
import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;

/** An instance per Main that adds: perthis. */
@Aspect("perthis(execution(* demo.Main.add(..)))")
public class PerMain {
    private static int made;
    private final int id = ++made;
    private int calls;

    @AfterReturning(pointcut = "execution(* demo.Main.add(..)) && this(main)", returning = "n")
    public void added(Object main, int n) {
        System.out.println("perthis: instance " + id + ", call " + ++calls + ", size " + n + ", aspectOf "
                + (Aspects.aspectOf(PerMain.class, main) == this) + ", hasAspect of a string " + Aspects.hasAspect(PerMain.class, "x"));
    }
}
