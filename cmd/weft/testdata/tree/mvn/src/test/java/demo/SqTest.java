package demo;
import org.junit.Test;
import static org.junit.Assert.assertEquals;
public class SqTest {
    @Test public void sum() {
        int s = 0;
        for (int i = 0; i < 10; i++) s += Sq.probeSq(i);
        assertEquals(285, s);
    }
}
