import java.util.*;
import java.util.zip.*;
import java.io.*;
public class Link {
    public static void main(String[] a) throws Exception {
        int ok = 0, verify = 0, other = 0;
        Map<String, Integer> kinds = new TreeMap<>();
        try (ZipFile z = new ZipFile(a[0])) {
            for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements();) {
                String n = e.nextElement().getName();
                if (!n.endsWith(".class") || n.contains("module-info") || n.startsWith("META-INF")) continue;
                String cn = n.substring(0, n.length() - 6).replace('/', '.');
                try {
                    Class<?> c = Class.forName(cn, false, Link.class.getClassLoader());
                    c.getDeclaredMethods();
                    ok++;
                } catch (VerifyError | ClassFormatError x) {
                    verify++;
                    if (verify <= 3) System.out.println("VERIFY " + cn + ": " + x);
                } catch (Throwable x) {
                    other++;
                    kinds.merge(x.getClass().getSimpleName(), 1, Integer::sum);
                }
            }
        }
        System.out.println("ok " + ok + " verify " + verify + " other " + other + " " + kinds);
    }
}
