// The program Ant compiles and runs: probeSq is called 10 times.
public class Sq {
    static int probeSq(int x) { return x * x; }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        System.out.println("ant " + s);
    }
}
