package demo;

import java.util.ArrayList;
import java.util.List;

// A program Kieker's OperationExecutionAspectFull monitors: its records
// name each execution and constructor with its order (eoi) and depth
// (ess) in the trace.
public class Main {
    private final List<Integer> squares = new ArrayList<>();

    static int square(int x) {
        return x * x;
    }

    int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    void fill(int n) {
        for (int i = 0; i < n; i++) {
            squares.add(square(i));
        }
    }

    int check(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        Main m = new Main();
        m.fill(3);
        System.out.println("squares " + m.squares + ", fib " + m.fib(4) + ", check " + m.check("x"));
    }
}
