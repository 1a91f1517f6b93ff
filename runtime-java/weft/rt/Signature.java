package weft.rt;

import java.lang.reflect.Modifier;

/**
 * The signature of a join point's member as AspectJ's
 * org.aspectj.lang.Signature describes it: name, declaring type, modifiers,
 * and the three string forms of AspectJ's StringMaker. It is read from the
 * static part's signature ("int demo.Fib.fib(int)": binary names, a
 * constructor named {@code <init>}, a field without parentheses).
 */
public final class Signature {
    /** The forms of AspectJ's StringMaker: toShortString, toString, toLongString. */
    static final int SHORT = 0, MIDDLE = 1, LONG = 2;

    private final String type;          // the return or field type; null for constructors
    private final String declaringType; // binary name, e.g. "java.util.Map$Entry", "int[]"
    private final String name;
    private final String[] params;      // null for fields
    private final int modifiers;

    Signature(JoinPointStaticPart sp) {
        String s = sp.getSignature();
        int open = s.indexOf('(');
        String head = open < 0 ? s : s.substring(0, open);
        int space = head.indexOf(' ');
        String type = head.substring(0, space);
        String member = head.substring(space + 1);
        int dot = member.lastIndexOf('.');
        this.declaringType = member.substring(0, dot);
        this.name = member.substring(dot + 1);
        this.type = name.equals("<init>") ? null : type;
        if (open < 0) {
            this.params = null;
        } else {
            String ps = s.substring(open + 1, s.length() - 1);
            this.params = ps.isEmpty() ? new String[0] : ps.split(", ");
        }
        this.modifiers = sp.getModifiers();
    }

    /** The member's name: "<init>" for constructors, as in AspectJ. */
    public String getName() { return name; }

    /**
     * The declaring type's name as Class.getName() gives it
     * ("java.util.Map$Entry", "[I" for an array construction).
     */
    public String getDeclaringTypeName() {
        return className(declaringType);
    }

    /**
     * Class.getName()'s form of a type as Java writes it: a class's binary
     * name as it is, an array's descriptor ("int[]" is "[I",
     * "java.lang.String[][]" is "[[Ljava.lang.String;").
     */
    public static String className(String type) {
        if (!type.endsWith("[]")) {
            return type;
        }
        StringBuilder b = new StringBuilder();
        String e = type;
        while (e.endsWith("[]")) {
            b.append('[');
            e = e.substring(0, e.length() - 2);
        }
        switch (e) {
            case "boolean": return b.append('Z').toString();
            case "byte": return b.append('B').toString();
            case "char": return b.append('C').toString();
            case "short": return b.append('S').toString();
            case "int": return b.append('I').toString();
            case "long": return b.append('J').toString();
            case "float": return b.append('F').toString();
            case "double": return b.append('D').toString();
        }
        return b.append('L').append(e).append(';').toString();
    }

    /**
     * The return type's name ("int", "java.lang.String[]", binary names
     * such as "java.util.Map$Entry"), the type for a field, null for a
     * constructor.
     */
    public String getReturnTypeName() { return type; }

    /**
     * The parameter types' names, in getReturnTypeName's form (a copy);
     * null for a field.
     */
    public String[] getParameterTypeNames() { return params == null ? null : params.clone(); }

    /** The member's modifiers (java.lang.reflect.Modifier flags). */
    public int getModifiers() { return modifiers; }

    /** AspectJ's form, e.g. "int demo.Fib.fib(int)", "String demo.A.m(List)". */
    @Override
    public String toString() { return format(MIDDLE); }

    /** AspectJ's short form, e.g. "Fib.fib(..)". */
    public String toShortString() { return format(SHORT); }

    /** AspectJ's long form, e.g. "public static int demo.Fib.fib(int)". */
    public String toLongString() { return format(LONG); }

    /**
     * The signature as AspectJ's StringMaker writes it: the short form has
     * short names (no package, the declaring type's too) and "(..)" for any
     * parameters; the middle one short names but the declaring type's; the
     * long one modifiers and full names. Nested types are written with dots.
     */
    String format(int form) {
        StringBuilder b = new StringBuilder();
        if (form == LONG) {
            String mods = Modifier.toString(modifiers);
            if (!mods.isEmpty()) {
                b.append(mods).append(' ');
            }
        }
        if (name.equals("<catch>") && params != null && params.length == 1) {
            // AspectJ's CatchClauseSignature: the caught type, no modifiers.
            return "catch(" + typeName(params[0], form != LONG) + ")";
        }
        if (name.equals("<clinit>")) {
            // AspectJ's InitializerSignature: no type, no parameters.
            return b.append(typeName(declaringType, form == SHORT)).append(".<clinit>").toString();
        }
        if (type != null && form != SHORT) {
            b.append(typeName(type, form == MIDDLE)).append(' ');
        }
        b.append(typeName(declaringType, form == SHORT));
        if (type != null) {
            b.append('.').append(name);
        }
        if (params == null) {
            return b.toString();
        }
        if (form == SHORT) {
            return b.append(params.length == 0 ? "()" : "(..)").toString();
        }
        b.append('(');
        for (int i = 0; i < params.length; i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(typeName(params[i], form == MIDDLE));
        }
        return b.append(')').toString();
    }

    /** A type name as AspectJ writes it: nested types with dots, short without the package. */
    private static String typeName(String binaryName, boolean shortName) {
        String n = shortName ? binaryName.substring(binaryName.lastIndexOf('.') + 1) : binaryName;
        return n.replace('$', '.');
    }
}
