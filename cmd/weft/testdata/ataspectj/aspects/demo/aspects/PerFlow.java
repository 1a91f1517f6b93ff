package demo.aspects;

import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/** An instance per control flow of Main.add: percflow. */
@Aspect("percflow(execution(* demo.Main.add(..)))")
public class PerFlow {
    private static int made;
    private final int id = ++made;
    private int adds;

    @Before("call(boolean java.util.List.add(Object)) && within(demo.Main)")
    public void listAdd() {
        adds++;
    }

    @After("execution(* demo.Main.add(..))")
    public void done() {
        System.out.println("percflow: flow " + id + ", list adds " + adds);
    }
}
