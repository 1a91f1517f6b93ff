package bench.at;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * bench/ataspectj.sh's @AspectJ aspect: counts the executions of the
 * generated classes' methods and of Hot.fib; count.weft is its .weft twin.
 */
@Aspect
public class Count {
    private long hits;

    public Count() {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("count: " + hits + " hits")));
    }

    @Before("execution(* p..*.*(..)) || execution(int bench.Hot.fib(int))")
    public void hit() {
        hits++;
    }
}
