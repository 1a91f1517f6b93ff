package sq;

import java.util.ArrayList;
import java.util.List;

// A running sum, kept as a list (generics and a lambda for ecj to compile).
final class Sum {
    private final List<Integer> parts = new ArrayList<>();

    void add(int n) {
        parts.add(n);
    }

    int total() {
        return parts.stream().mapToInt(Integer::intValue).sum();
    }
}
