package aradv;

import java.util.Map;
import java.util.TreeMap;

// Counts advice runs by name, for ajc's aspect and weft's advice alike.
public class Count {
    static final Map<String, Integer> counts = new TreeMap<>();

    public static void hit(String name) {
        counts.merge(name, 1, Integer::sum);
    }

    public static void dump() {
        System.out.println("counts " + counts);
    }
}
