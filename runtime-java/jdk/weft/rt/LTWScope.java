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
 * translated by LTWGlob. Lines starting with = are the aspects' reach
 * (advice.Reach): regular expressions over internal names; a class none
 * matches holds no shadow any aspect can match, and is counted as
 * LTWClient.UNREACHED.
 */
final class LTWScope {
    private LTWScope() {}

    private static volatile boolean loaded;
    private static Pattern[] include, exclude; // null include: every class
    private static Pattern[] reach; // null: every class

    /**
     * The hit number of the class of binary name if this JVM leaves it
     * unwoven itself (LTWClient.OUT_OF_SCOPE or UNREACHED), else 0.
     */
    static int leaves(String binaryName) {
        if (!loaded) {
            load();
        }
        if (include == null && exclude == null && reach == null) {
            return 0;
        }
        String name = binaryName.replace('.', '/');
        if (!takes(name)) {
            return LTWClient.OUT_OF_SCOPE;
        }
        Pattern[] r = reach;
        if (r != null) {
            for (Pattern p : r) {
                if (p.matcher(name).matches()) {
                    return 0;
                }
            }
            return LTWClient.UNREACHED;
        }
        return 0;
    }

    /** Whether the class of internal name is in scope. */
    private static boolean takes(String name) {
        Pattern[] in = include, ex = exclude;
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
            String file = LTWClient.setting("weft.ltw.scope", "WEFT_LTW_SCOPE");
            if (file != null) {
                List<Pattern> in = new ArrayList<>(), ex = new ArrayList<>(), re = new ArrayList<>();
                boolean reached = false; // a "=" line alone: no class is reached
                for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                    if (line.startsWith("=")) {
                        reached = true;
                        if (line.length() > 1) {
                            re.add(Pattern.compile(line.substring(1)));
                        }
                        continue;
                    }
                    if (line.length() < 2) {
                        continue;
                    }
                    (line.charAt(0) == '-' ? ex : in).add(Pattern.compile(LTWGlob.regex(line.substring(1))));
                }
                include = in.isEmpty() ? null : in.toArray(new Pattern[0]);
                exclude = ex.isEmpty() ? null : ex.toArray(new Pattern[0]);
                reach = reached ? re.toArray(new Pattern[0]) : null;
                // The classes left out are counted as hits, reported with the
                // next request or at exit: this JVM may send none and so never
                // load the cache's index, whose hook reports at exit too.
                Runtime.getRuntime().addShutdownHook(new LTWCache.Report());
            }
        } catch (Throwable e) {
            include = exclude = reach = null; // no scope here: the server applies it
        }
        loaded = true;
    }
}
