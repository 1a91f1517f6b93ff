package sq;

// The program ecj compiles in the program matrix (matrix_ecj_derby_test.go):
// probeSq is called 10 times; it prints 285.
public class Sq {
    static int probeSq(int i) {
        return i * i;
    }

    public static void main(String[] args) {
        Sum sum = new Sum();
        for (int i = 0; i < 10; i++) {
            sum.add(probeSq(i));
        }
        System.out.println(sum.total());
    }
}
