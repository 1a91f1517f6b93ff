package weft.rt;

import java.util.regex.Pattern;

/**
 * Translates weft's scope globs (doublestar: * and ? within a name, ** across
 * packages as a whole component, [..] and {a,b}) into regular expressions
 * over internal class names, for LTWScope. TestScopeGlobsAgree checks it
 * against weft's own matcher.
 */
final class LTWGlob {
    private LTWGlob() {}

    /** The regular expression of a glob. */
    static String regex(String glob) {
        StringBuilder r = new StringBuilder();
        int n = glob.length();
        for (int i = 0; i < n; i++) {
            char c = glob.charAt(i);
            boolean start = i == 0 || glob.charAt(i - 1) == '/';
            if (c == '*' && i + 1 < n && glob.charAt(i + 1) == '*' && start
                    && (i + 2 == n || glob.charAt(i + 2) == '/')) {
                if (i + 2 == n) {
                    r.append(".*"); // a last ** takes the rest
                } else {
                    r.append("(?:.*/)?"); // **/ : any number of packages
                    i++;
                }
                i++;
                continue;
            }
            switch (c) {
                case '*' -> r.append("[^/]*");
                case '?' -> r.append("[^/]");
                case '{' -> r.append("(?:");
                case '}' -> r.append(')');
                case ',' -> r.append('|');
                case '[' -> {
                    int end = glob.indexOf(']', i + 2);
                    if (end < 0) {
                        r.append("\\[");
                        break;
                    }
                    String set = glob.substring(i + 1, end);
                    if (set.startsWith("!") || set.startsWith("^")) {
                        set = "^" + set.substring(1);
                    }
                    r.append('[').append(set.replace("\\", "\\\\").replace("[", "\\[")).append(']');
                    i = end;
                }
                case '\\' -> {
                    if (i + 1 < n) {
                        r.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
                    }
                }
                default -> r.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return r.toString();
    }
}
