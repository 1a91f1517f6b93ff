// Package rtnames spells the names of weft's Java runtime (weft.rt) that
// woven code refers to, once each: its classes, members, system properties
// and the fields weft adds to java.lang.Thread. It depends on nothing, so
// that the pointcut language and the weaver name the runtime without
// building it (package rtjava does); rtjava's TestNamesExist checks each
// name against the compiled runtime.
package rtnames

// Package is the runtime's internal package name; PackagePrefix starts the
// internal name of each of its classes.
const (
	Package       = "weft/rt"
	PackagePrefix = Package + "/"
)

// NamespacePrefix starts the internal name of every class of weft's own
// namespace, package weft and below: the runtime (weft.rt) and the tools'
// advice (weft.tools.profile, weft.tools.leak, weft.tools.recrash,
// weft.tools.count). weft never weaves a class of it, so no aspect needs
// to leave its own advice out with !within, and no package of a program is
// mistaken for a tool's.
const NamespacePrefix = "weft/"

// The runtime's classes, by internal name.
const (
	BIB                 = PackagePrefix + "BIB"  // bootstrap bypass: false until System.initPhase3 ends
	DIB                 = PackagePrefix + "DIB"  // per-thread dynamic bypass
	Weft                = PackagePrefix + "Weft" // the guard at the entry of woven methods
	JoinPointStaticPart = PackagePrefix + "JoinPointStaticPart"
	JoinPoint           = PackagePrefix + "JoinPoint" // thisJoinPoint
	Proceed             = PackagePrefix + "Proceed"   // around advice's proceed: the superclass of sister classes with around shadows
	Conversions         = PackagePrefix + "Conversions"
	Cflow               = PackagePrefix + "Cflow" // cflow and cflowbelow state, per thread
	// Parts finds static parts by join point id; each sister class holding
	// static parts is a PartsSource (an interface every module sees: a
	// superinterface is checked as the class is defined) and registers
	// itself with it.
	Parts       = PackagePrefix + "Parts"
	PartsSource = "java/util/function/IntFunction"
)

// JoinPointStaticPartDesc is the descriptor of thisJoinPointStaticPart.
const JoinPointStaticPartDesc = "L" + JoinPointStaticPart + ";"

// JoinPointDesc is the descriptor of thisJoinPoint.
const JoinPointDesc = "L" + JoinPoint + ";"

// UnadvisedProperty, set to true on a JVM of the woven JDK, keeps it in
// bootstrap mode for its whole run (JDK-mode BIB.setReady does nothing):
// woven code runs its original bodies and no advice runs. weft sets it on
// the JVMs it runs to build a runtime image (the CDS dumps), which must not
// run the user's advice (it would write its reports, for one).
const UnadvisedProperty = "weft.unadvised"

// ThreadDIBField is the boolean field added to java.lang.Thread that holds
// the thread's bypass flag when the JDK is woven (the JDK-mode DIB reads
// it). The `$` keeps it out of any Java source's namespace.
const ThreadDIBField = "weft$dib"

// ThreadLocalField is the Object field added to java.lang.Thread that holds
// weft.rt.Local's per-thread slot when the JDK is woven.
const ThreadLocalField = "weft$local"

// ThreadCflowField is the Object field added to java.lang.Thread that holds
// the thread's cflow state (weft.rt.Cflow) when the JDK is woven.
const ThreadCflowField = "weft$cflow"

// Ref is a static field or method of the runtime.
type Ref struct {
	Owner string // internal name
	Name  string
	Desc  string
	Field bool
}

// The runtime members woven code refers to.
var (
	BIBReady    = Ref{Owner: BIB, Name: "ready", Desc: "Z", Field: true}
	BIBSetReady = Ref{Owner: BIB, Name: "setReady", Desc: "()V"}
	BIBIsReady  = Ref{Owner: BIB, Name: "isReady", Desc: "()Z"}
	// ThreadCurrent and ThreadDIB: a woven JDK's entry helpers read and
	// set the flag themselves (weaver/fused.go).
	ThreadCurrent = Ref{Owner: "java/lang/Thread", Name: "currentThread", Desc: "()Ljava/lang/Thread;"}
	ThreadDIB     = Ref{Owner: "java/lang/Thread", Name: ThreadDIBField, Desc: "Z", Field: true}
	WeftEnter     = Ref{Owner: Weft, Name: "enter", Desc: "()Ljava/lang/Object;"}
	DIBToken      = Ref{Owner: DIB, Name: "token", Desc: "()Ljava/lang/Object;"}
	DIBBegin      = Ref{Owner: DIB, Name: "begin", Desc: "(Ljava/lang/Object;)V"}
	DIBEnd        = Ref{Owner: DIB, Name: "end", Desc: "(Ljava/lang/Object;)V"}
	// DIBLeafDirect says whether helpers call leaf advice without the
	// flag (true only in application mode); DIBEnterInit and DIBExitInit
	// bracket a sister's initialization of leaf advice classes.
	DIBLeafDirect = Ref{Owner: DIB, Name: "leafDirect", Desc: "Z", Field: true}
	DIBEnterInit  = Ref{Owner: DIB, Name: "enterInit", Desc: "()Ljava/lang/Object;"}
	DIBExitInit   = Ref{Owner: DIB, Name: "exitInit", Desc: "(Ljava/lang/Object;)V"}
	// JoinPointStaticPartOf makes a join point's static part, which the
	// sister class keeps: (id, kind, declaring type, name, signature,
	// within, file, line, modifiers).
	JoinPointStaticPartOf = Ref{Owner: JoinPointStaticPart, Name: "of",
		Desc: "(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;" +
			"Ljava/lang/String;Ljava/lang/String;II)" + JoinPointStaticPartDesc}
	// PartsRegister registers a sister class's static parts: (first id,
	// count, the sister's instance).
	PartsRegister = Ref{Owner: Parts, Name: "register", Desc: "(IIL" + PartsSource + ";)V"}
	// PartsSourceApply is PartsSource's method, which a sister implements:
	// the static part of an id.
	PartsSourceApply = Ref{Owner: PartsSource, Name: "apply", Desc: "(I)Ljava/lang/Object;"}
	// PartsDecode makes a static part from a sister's lines of them: (id,
	// relative id, the lines), null if none is the relative id's.
	PartsDecode = Ref{Owner: Parts, Name: "decode", Desc: "(IILjava/lang/String;)" + JoinPointStaticPartDesc}
	// JoinPointMake makes thisJoinPoint: (static part, this, target, args).
	JoinPointMake = Ref{Owner: JoinPoint, Name: "make",
		Desc: "(" + JoinPointStaticPartDesc + "Ljava/lang/Object;Ljava/lang/Object;[Ljava/lang/Object;)" + JoinPointDesc}
)

// The cflow members woven code calls (weft.rt.Cflow): each takes the
// thread's bypass token (DIB.token's, which locates the thread's state)
// and the cflow's key.
var (
	CflowEnter = Ref{Owner: Cflow, Name: "enter", Desc: "(Ljava/lang/Object;I)V"}
	CflowExit  = Ref{Owner: Cflow, Name: "exit", Desc: "(Ljava/lang/Object;I)V"}
	CflowIn    = Ref{Owner: Cflow, Name: "in", Desc: "(Ljava/lang/Object;I)Z"}
	CflowPush  = Ref{Owner: Cflow, Name: "push", Desc: "(Ljava/lang/Object;I[Ljava/lang/Object;)V"}
	CflowPop   = Ref{Owner: Cflow, Name: "pop", Desc: "(Ljava/lang/Object;I)V"}
	CflowGet   = Ref{Owner: Cflow, Name: "get", Desc: "(Ljava/lang/Object;II)Ljava/lang/Object;"}
)

// Refs lists every member above.
func Refs() []Ref {
	return append([]Ref{BIBReady, BIBSetReady, BIBIsReady, WeftEnter, DIBToken, DIBBegin, DIBEnd, DIBLeafDirect, DIBEnterInit, DIBExitInit, JoinPointStaticPartOf, PartsRegister, PartsDecode, JoinPointMake,
		ProceedArity, ProceedNoTarget, CflowEnter, CflowExit, CflowIn, CflowPush, CflowPop, CflowGet}, ConversionRefs()...)
}

// Around advice's runtime (weaver/around.go): a sister class with around
// shadows extends Proceed, calling its constructor and implementing its two
// run methods; ProceedArity and ProceedNoTarget make the exceptions of
// proceed's checks.
var (
	ProceedInit     = Ref{Owner: Proceed, Name: "<init>", Desc: "(Ljava/lang/Object;)V"}
	ProceedRun      = Ref{Owner: Proceed, Name: "run", Desc: "()Ljava/lang/Object;"}
	ProceedRunWith  = Ref{Owner: Proceed, Name: "run", Desc: "(ZLjava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;"}
	ProceedArity    = Ref{Owner: Proceed, Name: "arity", Desc: "(II)Ljava/lang/IllegalArgumentException;"}
	ProceedNoTarget = Ref{Owner: Proceed, Name: "noTarget", Desc: "()Ljava/lang/IllegalArgumentException;"}
)

// ProceedRefs lists Proceed's members a sister class uses that are not
// public static (checked for existence only).
func ProceedRefs() []Ref { return []Ref{ProceedInit, ProceedRun, ProceedRunWith} }

// ConversionRef returns the Conversions method unboxing to primitive t
// ("I", "Z", ...), as AspectJ's Conversions: null is 0.
func ConversionRef(t string) Ref {
	names := map[string]string{"I": "int", "J": "long", "F": "float", "D": "double",
		"B": "byte", "S": "short", "C": "char", "Z": "boolean"}
	return Ref{Owner: Conversions, Name: names[t] + "Value", Desc: "(Ljava/lang/Object;)" + t}
}

// ConversionRefs lists the Conversions methods.
func ConversionRefs() []Ref {
	var out []Ref
	for _, t := range []string{"I", "J", "F", "D", "B", "S", "C", "Z"} {
		out = append(out, ConversionRef(t))
	}
	return out
}

// LTW is the JDK-mode runtime's load-time weaving entry (runtime-java/jdk
// only): the wrappers weft adds to java.base around the natives that define
// classes call it (weaver/jdk's PatchDefiners, docs/ltw.md).
const LTW = PackagePrefix + "LTW"

// The LTW members the wrappers call. Each weave method returns null or
// {woven bytes, sister binary name or null, sister bytes}. weave and
// weaveBuffer take the class's code source last (the natives' source, a
// URL or null): weft weaves the other classes of its jar ahead.
var (
	LTWWeave = Ref{Owner: LTW, Name: "weave",
		Desc: "(Ljava/lang/ClassLoader;Ljava/lang/String;[BIILjava/lang/String;)[Ljava/lang/Object;"}
	LTWWeaveBuffer = Ref{Owner: LTW, Name: "weaveBuffer",
		Desc: "(Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/nio/ByteBuffer;IILjava/lang/String;)[Ljava/lang/Object;"}
	LTWWeaveLookup = Ref{Owner: LTW, Name: "weaveLookup",
		Desc: "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIII)[Ljava/lang/Object;"}
	LTWRejected = Ref{Owner: LTW, Name: "rejected", Desc: "(Ljava/lang/Throwable;Ljava/lang/String;)V"}
	// LTWDefined gets each woven class the wrappers defined: its named
	// module is given access to weft's runtime and the advice.
	LTWDefined = Ref{Owner: LTW, Name: "defined", Desc: "(Ljava/lang/Class;)V"}
)

// LTWRefs lists the LTW members (checked against the JDK-mode runtime).
func LTWRefs() []Ref { return []Ref{LTWWeave, LTWWeaveBuffer, LTWWeaveLookup, LTWRejected, LTWDefined} }

// LTWProperty is the system property that gives the JVM the load-time
// weaving socket's path.
const LTWProperty = "weft.ltw"

// LTWScopeProperty names the file of the scope's class globs, a line each,
// + or - then the glob, that the JVM applies itself (weft.rt.LTWScope).
const LTWScopeProperty = "weft.ltw.scope"

// LTWEnv and LTWScopeEnv are the environment variables that say what
// LTWProperty and LTWScopeProperty say, to a JVM started without them: the
// JVMs a program starts inherit them, so every JVM of a process tree on
// the woven runtime image reaches the same load-time weaving.
const (
	LTWEnv      = "WEFT_LTW"
	LTWScopeEnv = "WEFT_LTW_SCOPE"
)
