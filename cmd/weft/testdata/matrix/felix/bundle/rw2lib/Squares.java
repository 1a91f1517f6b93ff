// The library bundle's exported class: the activator of the other bundle
// calls sum, which calls probeSq 10 times.
package rw2lib;

public class Squares {
    static int probeSq(int i) { return i * i; }
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += probeSq(i);
        return s;
    }
}
