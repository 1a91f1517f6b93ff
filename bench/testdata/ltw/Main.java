package bench;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * The load-time weaving benchmark's program (bench/ltw.sh): loads the
 * classes p.C0 ... p.C(N-1) from a jar that is not on the class path,
 * through a URLClassLoader of its own, makes one instance of each and runs
 * it once. It prints the sum of the results (stdout) and the time the
 * loop took (stderr): what load-time weaving adds shows there.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        long start = System.nanoTime();
        long sum = 0;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {new File(args[0]).toURI().toURL()}, Main.class.getClassLoader())) {
            for (int i = 0; i < n; i++) {
                Task t = (Task) Class.forName("p.C" + i, true, loader).getDeclaredConstructor().newInstance();
                sum += t.run(i);
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("sum " + sum);
        System.err.println("loop: " + n + " classes in " + ms + " ms");
    }
}
