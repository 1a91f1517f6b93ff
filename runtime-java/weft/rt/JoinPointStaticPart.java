package weft.rt;

/**
 * The static part of a join point: what is known about it at weave time
 * (kind, signature, declaring type, source location) and its id, an int
 * unique per shadow across a weaving run.
 *
 * <p>Woven code never builds these in a static initializer: the sister class
 * makes each one with {@link #of} the first time advice runs at its shadow,
 * and keeps it (one object per shadow and class).
 */
public final class JoinPointStaticPart {
    private final int id;
    private final String kind;
    private final String declaringType;
    private final String name;
    private final String signature;
    private final String withinType;
    private final String sourceFile;
    private final int line;
    private final int modifiers;
    /** The AspectJ-style signature, made on first use (a benign race). */
    private Signature aspectJSignature;
    /** weft.at's org.aspectj.lang view of this part (see getAspectJPart). */
    private Object aspectJPart;

    public JoinPointStaticPart(int id, String kind, String declaringType, String name,
            String signature, String withinType, String sourceFile, int line) {
        this(id, kind, declaringType, name, signature, withinType, sourceFile, line, 0);
    }

    public JoinPointStaticPart(int id, String kind, String declaringType, String name,
            String signature, String withinType, String sourceFile, int line, int modifiers) {
        this.id = id;
        this.kind = kind;
        this.declaringType = declaringType;
        this.name = name;
        this.signature = signature;
        this.withinType = withinType;
        this.sourceFile = sourceFile;
        this.line = line;
        this.modifiers = modifiers;
    }

    /**
     * The static part the sister classes make, once per shadow: a plain
     * call, where a dynamic constant's bootstrap method would take its nine
     * static arguments through method handles (adapters spun and
     * interpreted, tens of milliseconds at a program's start).
     */
    public static JoinPointStaticPart of(int id, String kind, String declaringType, String name, String signature,
            String withinType, String sourceFile, int line, int modifiers) {
        return new JoinPointStaticPart(id, kind, declaringType, name, signature, withinType,
                sourceFile.isEmpty() ? null : sourceFile, line > 0 ? line : -1, modifiers);
    }

    /** The join point id: unique per shadow across a weaving run. */
    public int getId() { return id; }

    /**
     * The kind as AspectJ names it: "method-call", "method-execution",
     * "constructor-call", "constructor-execution", "array-construction".
     */
    public String getKind() { return kind; }

    /** The declaring type of the member, as a binary name (e.g. java.util.HashMap). */
    public String getDeclaringTypeName() { return declaringType; }

    /** The member's name ("<init>" for constructors and arrays). */
    public String getName() { return name; }

    /** The member's signature, e.g. "int demo.Fib.fib(int)". */
    public String getSignature() { return signature; }

    /** The type whose code holds the shadow. */
    public String getWithinTypeName() { return withinType; }

    /** The source file of the shadow, or null without debug information. */
    public String getSourceFile() { return sourceFile; }

    /** The source line of the shadow, or -1 without a line table. */
    public int getLine() { return line; }

    /** "file:line" as AspectJ's SourceLocation prints it. */
    public String getSourceLocation() {
        return (sourceFile == null ? "unknown" : sourceFile) + ":" + line;
    }

    /**
     * The member's modifiers as the class file declares them (the flags of
     * java.lang.reflect.Modifier), 0 when the weaver could not resolve the
     * member (a call of a method missing from the class path).
     */
    public int getModifiers() { return modifiers; }

    /**
     * The object {@link #setAspectJPart} stored, or null: weft.at keeps
     * here the org.aspectj.lang.JoinPoint.StaticPart it adapts this part
     * to, so that @AspectJ advice sees one object per shadow, as under
     * AspectJ (aspects key maps by static part).
     */
    public Object getAspectJPart() { return aspectJPart; }

    /** Stores the object {@link #getAspectJPart} returns (the caller synchronizes). */
    public void setAspectJPart(Object part) { aspectJPart = part; }

    /** A short form such as "method-execution(int demo.Fib.fib(int))". */
    @Override
    public String toString() { return kind + "(" + signature + ")"; }

    /** AspectJ's short form, e.g. "execution(Fib.fib(..))". */
    public String toShortString() { return format(Signature.SHORT); }

    /** AspectJ's long form, e.g. "execution(public static int demo.Fib.fib(int))". */
    public String toLongString() { return format(Signature.LONG); }

    /** The join point as AspectJ's StringMaker writes it in the given form. */
    String format(int form) {
        // AspectJ shortens the kind to what follows its last dash
        // ("method-call" is "call"); its array construction is a
        // constructor call.
        String k = kind.equals("array-construction") ? "call" : kind.substring(kind.lastIndexOf('-') + 1);
        return k + "(" + aspectJSignature().format(form) + ")";
    }

    /** The member's signature as AspectJ's Signature describes it. */
    Signature aspectJSignature() {
        Signature s = aspectJSignature;
        if (s == null) {
            s = new Signature(this);
            aspectJSignature = s;
        }
        return s;
    }
}
