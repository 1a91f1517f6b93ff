public aspect Annots {
    before(): execution(@com.google.errorprone.annotations.CanIgnoreReturnValue * *(..)) && !within(Annots) { annotadv.C.a0(); }
    before(): call(@com.google.errorprone.annotations.CanIgnoreReturnValue * *(..)) && !within(Annots) { annotadv.C.a1(); }
    before(): within(@com.google.common.annotations.GwtCompatible *) && execution(new(..)) && !within(Annots) { annotadv.C.a2(); }
    before(): execution(* *(.., @javax.annotation.CheckForNull (*), ..)) && !within(Annots) { annotadv.C.a3(); }
    before(): @annotation(javax.annotation.CheckForNull) && (execution(* *(..)) || call(* *(..))) && !within(Annots) { annotadv.C.a4(); }
    before(): call(* *(..)) && @target(com.google.common.base.ElementTypesAreNonnullByDefault) && !within(Annots) { annotadv.C.a5(); }
    before(): execution(* *(..)) && @this(com.google.common.base.ElementTypesAreNonnullByDefault) && !within(Annots) { annotadv.C.a6(); }
    before(): @within(com.google.common.annotations.GwtIncompatible) && call(* java.util..*.*(..)) && !within(Annots) { annotadv.C.a7(); }
    before(): execution(!@com.google.errorprone.annotations.CanIgnoreReturnValue * com.google.common.base.Preconditions.*(..)) && !within(Annots) { annotadv.C.a8(); }
    before(): call(* *(..)) && @args(com.google.common.base.ElementTypesAreNonnullByDefault, ..) && !within(Annots) { annotadv.C.a9(); }
    before(): get(@javax.annotation.CheckForNull * *) || set(@javax.annotation.CheckForNull * *) && !within(Annots) { annotadv.C.a10(); }
    before(): execution(@(com.google.common.annotations.Beta || com.google.common.annotations.VisibleForTesting) * *(..)) && !within(Annots) { annotadv.C.a11(); }
    before(): @withincode(com.google.errorprone.annotations.CanIgnoreReturnValue) && call(* *(..)) && !within(Annots) { annotadv.C.a12(); }
    before(): call(* (@com.google.common.annotations.GwtCompatible *).*(..)) && within(com.google.common.base.Strings) && !within(Annots) { annotadv.C.a13(); }
    before(): execution(* *(@com.google.common.base.ElementTypesAreNonnullByDefault *, ..)) && !within(Annots) { annotadv.C.a14(); }
    before(): execution(@annotdemo.Tag(level=annotdemo.Level.HIGH) * *(..)) && !within(Annots) { annotadv.C.a15(); }
    before(): execution(@annotdemo.Tag(n!=3) * *(..)) && !within(Annots) { annotadv.C.a16(); }
    before(): execution(@annotdemo.Tag("d") * *(..)) && !within(Annots) { annotadv.C.a17(); }
    before(): execution(@annotdemo.Tag(c='z', l=7) * *(..)) && !within(Annots) { annotadv.C.a18(); }
    before(): execution(@annotdemo.Tag(k=String.class, b=true) * *(..)) && !within(Annots) { annotadv.C.a19(); }
    before(): execution(!@annotdemo.Tag(k=Object.class) * annotdemo.*.*(..)) && !within(Annots) { annotadv.C.a20(); }
    before(): within(@annotdemo.Tag("cls") *) && call(* *(..)) && !within(Annots) { annotadv.C.a21(); }
    before(): within(@com.google.common.annotations.GwtCompatible(emulated=true) *) && execution(static * *(..)) && !within(Annots) { annotadv.C.a22(); }
    before(): call(* (@com.google.common.annotations.GwtCompatible(serializable=true) *).*(..)) && !within(Annots) { annotadv.C.a23(); }
    before(): execution(@com.google.common.annotations.GwtIncompatible("java.util.regex.Pattern") * *(..)) && !within(Annots) { annotadv.C.a24(); }
    before(): execution(@com.google.errorprone.annotations.InlineMe(replacement!="string.repeat(count)") * *(..)) && !within(Annots) { annotadv.C.a25(); }
    before(): execution(@annotdemo.Tag(n=3) * *(..)) && !within(Annots) { annotadv.C.a26(); }
    before(): withincode(@com.google.common.annotations.GwtIncompatible("java.util.regex.Pattern") * *(..)) && (call(* *(..)) || call(new(..))) && !within(Annots) { annotadv.C.a27(); }
    before(javax.annotation.CheckForNull x): execution(* *(..)) && @annotation(x) && !within(Annots) { annotadv.C.bound(x); }
}
