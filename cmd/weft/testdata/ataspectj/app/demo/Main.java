package demo;

import java.util.ArrayList;
import java.util.List;

public class Main {
    private final List<String> names = new ArrayList<>();

    public int add(String name, int times) {
        for (int i = 0; i < times; i++) {
            names.add(name);
        }
        return names.size();
    }

    public static int square(int x) {
        return x * x;
    }

    public void fail(String why) {
        throw new IllegalStateException(why);
    }

    public static void main(String[] args) {
        Main m = new Main();
        System.out.println("add: " + m.add("a", 2));
        System.out.println("square: " + square(7));
        try {
            m.fail("on purpose");
        } catch (IllegalStateException e) {
            System.out.println("caught: " + e.getMessage());
        }
        System.out.println("names: " + m.names);
        Main other = new Main();
        System.out.println("other add: " + other.add("b", 1) + ", again " + other.add("c", 2) + ", first again " + m.add("d", 1));
        DeclaredParents.run();
    }
}

// The classes demo.aspects.Moods gives parents (@DeclareParents).
class MoodA {
    void work() {}
}

// mood() of its own: kept, not delegated.
class MoodB {
    public String mood() {
        return "MoodB's own mood";
    }

    void work() {}
}

// demo.Mood* names it too, but MoodA already makes it Moody.
class MoodC extends MoodA {}

// Not matched: Moody through MoodA only.
class InheritsMood extends MoodA {
    void rest() {}
}

class DeclaredParents {
    static void run() {
        Object[] all = {new MoodA(), new MoodB(), new MoodC(), new InheritsMood()};
        for (Object o : all) {
            Class<?>[] parents = o.getClass().getInterfaces();
            String[] names = new String[parents.length];
            for (int i = 0; i < names.length; i++) {
                names[i] = parents[i].getName();
            }
            java.util.Arrays.sort(names);
            System.out.println("parents of " + o.getClass().getSimpleName() + ": " + java.util.Arrays.toString(names));
        }
        System.out.println("mood: " + mood(all[0]) + ", " + mood(all[0]) + ", another " + mood(new MoodA()) + ", " + mood(all[1]));
        ((MoodA) all[0]).work();
        ((MoodB) all[1]).work();
        ((MoodC) all[2]).work();
        ((InheritsMood) all[3]).work();
        ((InheritsMood) all[3]).rest();
    }

    // Moody is the aspects': javac does not see it, and without them
    // (the JDK aspects' run) MoodA has no mood().
    static Object mood(Object o) {
        try {
            return o.getClass().getMethod("mood").invoke(o);
        } catch (ReflectiveOperationException e) {
            return e;
        }
    }
}
