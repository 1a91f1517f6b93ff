import java.util.*;
import org.apache.commons.lang3.*;
import org.apache.commons.lang3.builder.*;
import org.apache.commons.lang3.text.StrTokenizer;
import org.apache.commons.lang3.time.DurationFormatUtils;

/** Exercises commons-lang3; prints results, then the advice counts of each aspect. */
public class Exercise {
    public static void main(String[] args) throws Exception {
        System.out.println(StringUtils.capitalize("hello") + " " + StringUtils.reverse("abc") + " " + StringUtils.leftPad("7", 3, '0'));
        System.out.println(StringUtils.join(new String[] {"a", "b", "c"}, ","));
        System.out.println(Arrays.toString(ArrayUtils.add(new int[] {1, 2}, 3)) + " " + Arrays.toString(ArrayUtils.addAll(new boolean[] {true}, false)));
        System.out.println(StringEscapeUtils.escapeJava("a\"b\n"));
        System.out.println(new ToStringBuilder("x", ToStringStyle.SHORT_PREFIX_STYLE).append("n", 1).toString());
        System.out.println(new HashCodeBuilder(17, 37).append(42).toHashCode() + " " + new EqualsBuilder().append(1, 1).isEquals());
        StrTokenizer t = new StrTokenizer("a b  c");
        List<String> toks = new ArrayList<>();
        while (t.hasNext()) toks.add(t.next());
        System.out.println(toks);
        try { t.next(); } catch (NoSuchElementException e) { System.out.println("no more"); }
        System.out.println(DurationFormatUtils.formatDuration(3723000L, "HH:mm:ss"));
        System.out.println(RandomStringUtils.random(0) + "|" + CharUtils.toString('z') + " " + BooleanUtils.toStringYesNo(true));
        System.out.println(Arrays.toString(Conversion.hexDigitToBinary('a')) + " " + ObjectUtils.defaultIfNull(null, "dflt"));
        System.out.println(StringEscapeUtils.unescapeHtml4("&lt;&amp;&gt;") + " " + SystemUtils.IS_JAVA_1_8);
        // Catch blocks inside the library, and a constructor that throws.
        System.out.println(org.apache.commons.lang3.math.NumberUtils.toInt("x", -1) + " " + org.apache.commons.lang3.math.NumberUtils.toLong("1y", -2L));
        try { new org.apache.commons.lang3.text.ExtendedMessageFormat("{0,nosuchformat}"); } catch (IllegalArgumentException e) { System.out.println("bad format"); }
        // One counter class per aspect woven (testdata/diff/Counter.java).
        System.out.println("Counter " + diffadv.Counter.report());
        System.out.println("FieldCounter " + diffadv.FieldCounter.report());
        System.out.println("KindsCounter " + diffadv.KindsCounter.report());
        System.out.println("CflowCounter " + diffadv.CflowCounter.report());
    }
}
