import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A leak whose growing objects the JDK allocates (bench/jfr.sh): record
 * keeps every event's formatted line in a list per user, in a static map
 * never cleared. The Strings and their byte arrays are made inside
 * String.format, the lists' backing arrays inside ArrayList's growth; the
 * program's only frame is record. render makes as much garbage through the
 * same JDK methods and keeps none of it.
 */
public class Audit {
    static final Map<String, List<String>> byUser = new HashMap<>();

    static void record(int user, int event) {
        String line = String.format("user %d event %d at %d", user, event, event * 7L);
        byUser.computeIfAbsent("u" + user, k -> new ArrayList<>()).add(line);
    }

    static int render(int user, int event) {
        String line = String.format("user %d event %d at %d", user, event, event * 7L);
        List<String> words = new ArrayList<>(Arrays.asList(line.split(" ")));
        return words.size() + line.length();
    }

    public static void main(String[] args) {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 150_000;
        long sink = 0;
        for (int e = 0; e < events; e++) {
            record(e * 31 % 2000, e);
            sink += render(e % 2000, e);
        }
        System.out.println(byUser.size() + " users, " + sink);
    }
}
