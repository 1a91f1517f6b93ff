public aspect Annots {
    before(): execution(@com.google.errorprone.annotations.CanIgnoreReturnValue * *(..)) { annotadv.C.a(); }
    before(): call(@com.google.errorprone.annotations.CanIgnoreReturnValue * *(..)) { annotadv.C.a(); }
    before(): within(@com.google.common.annotations.GwtCompatible *) && execution(new(..)) { annotadv.C.a(); }
    before(): execution(* *(.., @javax.annotation.CheckForNull (*), ..)) { annotadv.C.a(); }
    before(): @annotation(javax.annotation.CheckForNull) && (execution(* *(..)) || call(* *(..))) { annotadv.C.a(); }
    before(): call(* *(..)) && @target(com.google.common.base.ElementTypesAreNonnullByDefault) { annotadv.C.a(); }
    before(): execution(* *(..)) && @this(com.google.common.base.ElementTypesAreNonnullByDefault) { annotadv.C.a(); }
    before(): @within(com.google.common.annotations.GwtIncompatible) && call(* java.util..*.*(..)) { annotadv.C.a(); }
    before(): execution(!@com.google.errorprone.annotations.CanIgnoreReturnValue * com.google.common.base.Preconditions.*(..)) { annotadv.C.a(); }
    before(): call(* *(..)) && @args(com.google.common.base.ElementTypesAreNonnullByDefault, ..) { annotadv.C.a(); }
    before(): get(@javax.annotation.CheckForNull * *) || set(@javax.annotation.CheckForNull * *) { annotadv.C.a(); }
    before(): execution(@(com.google.common.annotations.Beta || com.google.common.annotations.VisibleForTesting) * *(..)) { annotadv.C.a(); }
    before(): @withincode(com.google.errorprone.annotations.CanIgnoreReturnValue) && call(* *(..)) { annotadv.C.a(); }
    before(): call(* (@com.google.common.annotations.GwtCompatible *).*(..)) && within(com.google.common.base.Strings) { annotadv.C.a(); }
    before(): execution(* *(@com.google.common.base.ElementTypesAreNonnullByDefault *, ..)) { annotadv.C.a(); }
}
