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
    before(javax.annotation.CheckForNull x): execution(* *(..)) && @annotation(x) && !within(Annots) { annotadv.C.bound(x); }
}
