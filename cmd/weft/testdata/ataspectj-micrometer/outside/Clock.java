package outside;

import io.micrometer.core.annotation.Counted;
import io.micrometer.core.annotation.Timed;

// Annotated, but outside aop.xml's <weaver><include within="demo..*"/>:
// not woven, so no meter.
public class Clock {
    @Timed("clock.tick")
    @Counted("clock.ticks")
    public long tick() {
        return 42;
    }
}
