package weft.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * An agent that prints, as the JVM exits, the CPU time its JIT compiler
 * threads took (bench/suite.sh's -jit modes): "compiler-cpu c1=MS c2=MS
 * process=MS" on standard error, from /proc. The JVM must keep its
 * compiler threads (-XX:-UseDynamicNumberOfCompilerThreads): a thread that
 * ends takes its time out of /proc/self/task.
 */
public final class CompilerCPU {
    private CompilerCPU() {}

    public static void premain(String args) {
        Runtime.getRuntime().addShutdownHook(new Thread(CompilerCPU::report, "compiler-cpu"));
    }

    private static void report() {
        long c1 = 0, c2 = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String name = Files.readString(t.resolve("comm")).trim();
                    if (name.startsWith("C1 Compiler")) {
                        c1 += ticks(Files.readString(t.resolve("stat")));
                    } else if (name.startsWith("C2 Compiler")) {
                        c2 += ticks(Files.readString(t.resolve("stat")));
                    }
                } catch (IOException e) {
                    // a thread that ended as it was listed: not a compiler's, which stay
                }
            }
            long process = ticks(Files.readString(Paths.get("/proc/self/stat")));
            // USER_HZ is 100 on Linux: a tick is 10 ms.
            System.err.println("compiler-cpu c1=" + 10 * c1 + " c2=" + 10 * c2 + " process=" + 10 * process);
        } catch (IOException | RuntimeException e) {
            System.err.println("compiler-cpu: " + e);
        }
    }

    /** The user and system time of a stat line, in ticks (its 14th and 15th fields). */
    private static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
