package weft.rt;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The weaving scope at load time: the include and exclude globs weft gives
 * the JVM in the file named by -Dweft.ltw.scope (a line each, + or - then
 * the glob, over internal class names), so that a class out of scope is
 * defined unwoven here, without a round trip, and counted (LTWCache's hits,
 * LTWClient.OUT_OF_SCOPE). The globs are weft's (doublestar: * and ? within
 * a name, ** across packages as a whole component, [..] and {a,b}),
 * translated by LTWGlob.
 */
final class LTWScope {
    private LTWScope() {}

    private static volatile boolean loaded;
    private static Pattern[] include, exclude; // null include: every class

    /** Whether the class of binary name is in scope (true with no scope). */
    static boolean takes(String binaryName) {
        if (!loaded) {
            load();
        }
        Pattern[] in = include, ex = exclude;
        if (in == null && ex == null) {
            return true;
        }
        String name = binaryName.replace('.', '/');
        boolean taken = in == null;
        if (in != null) {
            for (Pattern p : in) {
                if (p.matcher(name).matches()) {
                    taken = true;
                    break;
                }
            }
        }
        if (taken && ex != null) {
            for (Pattern p : ex) {
                if (p.matcher(name).matches()) {
                    return false;
                }
            }
        }
        return taken;
    }

    private static synchronized void load() {
        if (loaded) {
            return;
        }
        try {
            String file = System.getProperty("weft.ltw.scope");
            if (file != null) {
                List<Pattern> in = new ArrayList<>(), ex = new ArrayList<>();
                for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                    if (line.length() < 2) {
                        continue;
                    }
                    (line.charAt(0) == '-' ? ex : in).add(Pattern.compile(LTWGlob.regex(line.substring(1))));
                }
                include = in.isEmpty() ? null : in.toArray(new Pattern[0]);
                exclude = ex.isEmpty() ? null : ex.toArray(new Pattern[0]);
                // The classes left out are counted as hits, reported with the
                // next request or at exit: this JVM may send none and so never
                // load the cache's index, whose hook reports at exit too.
                Runtime.getRuntime().addShutdownHook(new LTWCache.Report());
            }
        } catch (Throwable e) {
            include = exclude = null; // no scope here: the server applies it
        }
        loaded = true;
    }
}
