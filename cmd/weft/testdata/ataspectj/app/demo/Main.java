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
    }
}
