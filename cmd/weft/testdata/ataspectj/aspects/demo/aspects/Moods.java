package demo.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.DeclareParents;

/**
 * Gives demo's Mood classes parents: Moody, its method delegated to a
 * MoodyImpl, and the marker Tagged. The application, compiled without the
 * aspects, sees them by reflection only.
 */
@Aspect
public class Moods {
    public interface Moody {
        String mood();
    }

    /** The delegate: its count shows one per instance, made when first called. */
    public static class MoodyImpl implements Moody {
        private static int made;
        private final int id = ++made;
        private int calls;

        public String mood() {
            return "happy " + ++calls + " of delegate " + id;
        }
    }

    public interface Tagged {}

    @DeclareParents(value = "demo.Mood*", defaultImpl = MoodyImpl.class)
    public static Moody moody;

    @DeclareParents("demo.MoodB")
    public static Tagged tagged;

    // this(m): a Moody only by the declared parent; MoodA's subclasses too.
    @Before("execution(* demo.MoodA.work()) && this(m)")
    public void moods(Moody m) {
        System.out.println("moods: " + m.mood());
    }

    // A runtime test on MoodA (a subclass might be Tagged), none on MoodB.
    @Before("execution(* demo.Mood*.*(..)) && this(t)")
    public void tagged(Tagged t, JoinPoint.StaticPart sp) {
        System.out.println("tagged: " + sp.toShortString());
    }

    // InheritsMood's name does not match: Moody+ through MoodA.
    @AfterReturning("execution(void demo.*.*()) && within(demo.aspects.Moods.Moody+)")
    public void within(JoinPoint.StaticPart sp) {
        System.out.println("within Moody+: " + sp.toShortString());
    }

    // MoodB's own mood() implements Moody's; the mood() the weaver adds
    // to delegate is no join point.
    @Before("execution(String demo.aspects.Moods.Moody.mood()) && within(demo.*)")
    public void mood(JoinPoint jp) {
        System.out.println("Moody.mood() runs: " + jp.getSignature().toLongString());
    }
}
