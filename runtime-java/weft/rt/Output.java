package weft.rt;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where a tool's advice writes what it found, in every JVM of a process
 * tree. weft gives the JVM it starts the directory as a system property,
 * and every JVM of the tree the same directory in the environment, which
 * JVMs a program starts inherit: one that has only the environment's
 * writes into the directory's jvms/MAIN-PID/, so that the JVMs of one run
 * do not write over each other.
 */
public final class Output {
    private Output() {}

    /**
     * The output directory: the system property named, else the
     * environment variable's directory's jvms/ entry of this JVM, else
     * otherwise.
     */
    public static Path dir(String property, String variable, String otherwise) {
        String p = System.getProperty(property);
        if (p != null && !p.isEmpty()) {
            return Paths.get(p);
        }
        String e = System.getenv(variable);
        if (e == null || e.isEmpty()) {
            return Paths.get(otherwise);
        }
        return Paths.get(e, "jvms", jvmName());
    }

    /**
     * This JVM's name among the tree's: its main class (or jar's file
     * name), then its process id; characters a file name should not have
     * replaced by '_'.
     */
    public static String jvmName() {
        String cmd = System.getProperty("sun.java.command", "");
        int space = cmd.indexOf(' ');
        String main = space < 0 ? cmd : cmd.substring(0, space);
        main = main.substring(main.lastIndexOf('/') + 1);
        if (main.isEmpty()) {
            main = "jvm";
        }
        StringBuilder b = new StringBuilder(main.length() + 12);
        for (int i = 0; i < main.length(); i++) {
            char c = main.charAt(i);
            b.append(Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '$' ? c : '_');
        }
        return b.append('-').append(ProcessHandle.current().pid()).toString();
    }
}
