// The Java function behind the SQL function probeSq of the program
// matrix's Derby workload (matrix_ecj_derby_test.go, testdata/matrix/derby/sq.sql).
public class SqFn {
    public static int probeSq(int i) {
        return i * i;
    }
}
