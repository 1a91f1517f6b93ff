package weaver

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
	"github.com/weft-aop/weft/weaver/scope"
)

// Mode says which kind of classes a Weaver weaves. Woven code is the same in
// both modes; the mode changes only what the weaver refuses to touch.
type Mode int

const (
	// App weaves application classes; the runtime's DIB is a ThreadLocal.
	App Mode = iota
	// JDK weaves the JDK's own modules; the runtime lives in java.base and
	// the DIB is a field of java.lang.Thread (docs/jdk.md).
	JDK
)

// Options configure a Weaver.
type Options struct {
	// Hierarchy resolves supertypes for matching and frame computation.
	// Required for woven classes to verify.
	Hierarchy classfile.Hierarchy
	// IDBase is the first join point id. Runs whose woven code meets in
	// one JVM (the JDK and the application) must use disjoint ranges.
	IDBase int32
	Mode   Mode
	// Exclude, if set, names methods that are never woven (their shadows
	// are ignored), e.g. the JDK exclusion list. desc is the method
	// descriptor.
	Exclude func(class, method, desc string) bool
	// OmitShadows leaves Stats.Shadows and Result.Shadows empty
	// (Stats.Advised and Stats.Applied still sum them up): a caller that
	// prints no --weave-info saves recording them and gathering them at
	// the end (guava: 13,756 of 150 bytes each, the gathering 6-10 ms of
	// the run's serial end).
	OmitShadows bool
	// SharedEntries, in JDK mode, puts the entry helpers whose advice
	// takes only the join point's id in one class for the whole weaving,
	// SharedClass (fused.go), which the driver gets from
	// Weaver.SharedClass and adds to java.base. For a weaving of the JDK's
	// modules at once, not for classes woven one by one as the JVM
	// defines them.
	SharedEntries bool
	// Scope, if set, says which classes may be woven: a class out of it
	// is left as it is (copied byte for byte by WeavePath), whatever the
	// aspects match, and counted in the scope.
	Scope *scope.Scope
	// WeaveOwn, if set, is a package prefix of weft's namespace (say
	// "weft/tools/profile/calibrate/") whose classes are woven all the
	// same: the profiler times its own cost on a woven class of its own.
	// The runtime (RuntimePackage) is never woven.
	WeaveOwn string

	// decodeAll makes every method take the decoding path (weaveMethod),
	// none weaveEntry's shortcut: tests compare the two.
	decodeAll bool
}

// WeaveInfo describes one advised shadow: one line of --weave-info.
type WeaveInfo struct {
	Kind    advice.ShadowKind
	Member  advice.Member
	Within  string // internal name of the class holding the shadow
	File    string // SourceFile attribute, "" if none
	Line    int    // source line, 0 if the method has no line table
	ID      int32  // join point id
	Advice  *advice.Advice
	Residue bool // a runtime test (residue) guards the advice; ajc does not count after returning/throwing type checks
}

// String formats the shadow as AspectJ's -showWeaveInfo does.
func (wi *WeaveInfo) String() string {
	loc := "no debug info available"
	if wi.Line > 0 && wi.File != "" {
		loc = fmt.Sprintf("%s:%d", wi.File, wi.Line)
	} else if wi.Kind == advice.StaticInitialization && wi.File != "" {
		loc = wi.File // a <clinit> the weaver added, as ajc prints it
	}
	kind := wi.Kind.String()
	if wi.Kind == advice.ArrayConstruction {
		kind = "constructor-call" // as ajc -Xjoinpoints:arrayconstruction prints it
	}
	s := fmt.Sprintf("Join point '%s(%s)' in Type '%s' (%s) advised by %s advice from '%s' (%s:%d)",
		kind, Signature(wi.Kind, wi.Member), classfile.ObjectType(wi.Within).JavaName(), loc,
		wi.Advice.Kind, wi.Advice.Aspect, filepath.Base(wi.Advice.File), wi.Advice.Line)
	if wi.Residue {
		s += " [with runtime test]"
	}
	return s
}

// Signature writes a shadow's member as AspectJ does, e.g.
// "int demo.Fib.fib(int)", "void java.lang.StringBuilder.<init>(java.lang.String)"
// or, for a field, "int demo.Point.x".
func Signature(k advice.ShadowKind, m advice.Member) string {
	if k.IsField() {
		return fieldSignature(m)
	}
	mt, _ := classfile.ParseMethodDesc(m.Desc)
	ps := make([]string, len(mt.Params))
	for i, p := range mt.Params {
		ps[i] = p.JavaName()
	}
	ret := mt.Return
	if m.Name == "<init>" || ret == "" {
		ret = classfile.Void
	}
	return ret.JavaName() + " " + classfile.ObjectType(m.Owner).JavaName() + "." + m.Name + "(" + strings.Join(ps, ", ") + ")"
}

// Result is the outcome of weaving one class.
type Result struct {
	// Name is the class's internal name.
	Name string
	// Class is the woven class file, nil if the class is unchanged.
	Class []byte
	// Extra holds the classes to add next to it (the sister class), by
	// internal name.
	Extra map[string][]byte
	// Shadows lists every advised shadow, in code order.
	Shadows      []WeaveInfo
	MethodsWoven int
	// Warnings name methods left unwoven and why.
	Warnings []string
	// Missing lists the types the frames of the methods left unwoven
	// needed and the hierarchy did not know (classfile.UnknownTypeError):
	// a driver that can find them may learn them and weave the class
	// again.
	Missing []string
	// Parents lists the interfaces declared parents added to the class
	// (advice.Parents), internal names.
	Parents []string
	// AlreadyWoven is set for a class weft wove before, left as is: not a
	// method left unwoven, and no warning (a driver may say so once).
	AlreadyWoven bool
	// Declared lists the declare warnings and errors reported at the
	// class's shadows, in code order.
	Declared []Declared
	// PartsSister names the sister class (in Extra) holding static parts,
	// which it registers with weft.rt.Parts from id PartsBase on when it
	// initializes (parts.go); "" if none.
	PartsSister string
	PartsBase   int32

	// advised counts the advised shadows (Shadows, unless the weaver
	// omits them), applied lists their advice, each once.
	advised int
	applied []*advice.Advice
}

// Weaver weaves classes. It is safe for concurrent use.
type Weaver struct {
	m      advice.Matcher
	advice []*advice.Advice
	opts   Options
	nextID atomic.Int32
	// skip holds classes never woven: the runtime, the advice classes and
	// the classes leaf advice runs (advice.Advice.LeafReach).
	skip map[string]bool
	// checker reports declare warnings and errors at shadows of
	// declKinds (nil: m declares none); adviceKinds are the shadow kinds
	// m's advice can match.
	checker     advice.Checker
	declKinds   advice.KindSet
	adviceKinds advice.KindSet
	// testsLeaf: a pointcut may test Shadow.Leaf, so each method's code is
	// read for it (classfile.SelfContained).
	testsLeaf bool
	// reach is the classes the shadows m matches can be in (nil: every
	// class): a class outside it is left as it is once its name is read.
	reach *advice.Reach
	// allLeaf: an application weaving whose advice is all leaf
	// (advice.AllLeaf): woven entries may call it with no token (leaf.go).
	allLeaf bool
	// shared holds the entry helpers shared by the whole weaving
	// (Options.SharedEntries, fused.go).
	shared *sister
	// parents are m's declared parents (nil: none), host the hierarchy
	// that reports them to matching (nil if Options.Hierarchy cannot).
	parents advice.ParentsDeclarer
	host    parentsHost
}

// New returns a Weaver applying the advice chosen by m. If m is also an
// advice.Checker, its declare warnings and errors are reported in each
// Result (and by Check, without weaving).
func New(m advice.Matcher, adv []*advice.Advice, opts Options) *Weaver {
	w := &Weaver{m: m, advice: adv, opts: opts, skip: map[string]bool{}, adviceKinds: advice.ShadowKinds(m),
		allLeaf: opts.Mode == App && advice.AllLeaf(m), testsLeaf: advice.TestsLeaf(m)}
	if c, ok := m.(advice.Checker); ok && c.DeclaredKinds() != 0 {
		w.checker, w.declKinds = c, c.DeclaredKinds()
	}
	w.reach = advice.ClassReach(m)
	w.nextID.Store(opts.IDBase)
	if d, ok := advice.DeclaresParents(m); ok {
		w.parents = d
		if host, ok := opts.Hierarchy.(parentsHost); ok {
			w.host = host
			if opts.Mode == App {
				host.declareParents(d, w.takesParents)
			}
		}
	}
	if opts.SharedEntries && opts.Mode == JDK {
		w.shared = newShared(adv)
	}
	for _, a := range adv {
		w.skip[a.Method.Owner] = true
		for _, c := range a.LeafReach {
			w.skip[c] = true
		}
	}
	return w
}

// NextID returns the next unused join point id: a later run in the same
// JVM starts there.
func (w *Weaver) NextID() int32 { return w.nextID.Load() }

// Scope returns the scope the weaver was made with (Options.Scope), nil
// for none.
func (w *Weaver) Scope() *scope.Scope { return w.opts.Scope }

// Reach returns the classes the aspects' shadows can be in (nil: every
// class), for a load-time weaver's pre-filter: a class outside it is left
// as it is, so it need not be parsed, nor sent by the JVM.
func (w *Weaver) Reach() *advice.Reach { return w.reach }

// SisterSuffix ends the name of every sister class; no Java compiler emits
// it, so it cannot clash with a class of the program.
const SisterSuffix = "$weft$jp"

// RuntimePackage is the runtime's package prefix.
const RuntimePackage = rtnames.PackagePrefix

// Namespace starts the internal name of every class of weft's own
// namespace (weft/: the runtime and the tools' advice), which is never
// woven but for Options.WeaveOwn's classes.
const Namespace = rtnames.NamespacePrefix

// own reports whether class cname is of weft's namespace and not to be
// woven.
func (w *Weaver) own(cname string) bool {
	if !strings.HasPrefix(cname, Namespace) {
		return false
	}
	own := w.opts.WeaveOwn
	return own == "" || !strings.HasPrefix(cname, own) || strings.HasPrefix(cname, RuntimePackage)
}

// WeaveClass weaves one class file. name labels errors (a path or jar
// entry). A class that cannot be parsed or woven returns an error and the
// caller copies it unchanged; methods that cannot be woven (too large,
// undecodable) are left unchanged with a warning in the Result.
func (w *Weaver) WeaveClass(name string, data []byte) (*Result, error) {
	p, err := w.Prepare(name, data)
	if err != nil {
		return nil, err
	}
	return p.Result, w.FinishAt(p, w.ReserveIDs(p.IDs()))
}

// Prepared is a class woven by Prepare whose join points are not numbered
// yet: Result.Class is final, Result.Extra (the sister class) and the IDs
// in Result.Shadows are filled in by FinishAt.
type Prepared struct {
	Result *Result
	name   string
	cw     *classWeaver // nil if the class is unchanged
}

// IDs returns how many join point ids the class needs (0 if unchanged).
func (p *Prepared) IDs() int32 {
	if p.cw == nil {
		return 0
	}
	return p.cw.ids
}

// Prepare is the first half of WeaveClass, safe for concurrent use: a
// driver that weaves in parallel can then reserve ids in a fixed order
// (ReserveIDs) and finish the classes (FinishAt, also concurrently), so
// its output does not depend on scheduling. WeavePath works this way.
func (w *Weaver) Prepare(name string, data []byte) (*Prepared, error) {
	return w.PrepareWithSister(name, data, "")
}

// PrepareWithSister is Prepare with the sister class named sister instead
// of the class's name + SisterSuffix ("" means that default). A name the
// JVM defines many times in one loader (a hidden class, e.g. each
// LambdaForm$MH) needs a sister of its own per definition; sister must end
// in SisterSuffix, so the weaver never weaves it.
func (w *Weaver) PrepareWithSister(name string, data []byte, sister string) (*Prepared, error) {
	if sister != "" && !strings.HasSuffix(sister, SisterSuffix) {
		return nil, fmt.Errorf("%s: sister class name %s does not end in %s", name, sister, SisterSuffix)
	}
	res, cw, err := w.weave(name, data, sister)
	if err != nil {
		return nil, err
	}
	return &Prepared{Result: res, name: name, cw: cw}, nil
}

// ReserveIDs takes the next n join point ids and returns the first.
func (w *Weaver) ReserveIDs(n int32) int32 { return w.nextID.Add(n) - n }

// FinishAt numbers p's join points from base (reserved with ReserveIDs)
// and builds its sister class. On error the class must be copied
// unchanged.
func (w *Weaver) FinishAt(p *Prepared, base int32) error {
	if p.cw == nil {
		return nil
	}
	cw := p.cw
	p.cw = nil
	return w.finish(p.name, p.Result, cw, base)
}

// weave weaves a class with join point ids relative to the class; cw is
// nil if the class is unchanged. finish then numbers the ids from a base
// and builds the sister class: WeavePath weaves in parallel and numbers in
// input order, so its output does not depend on scheduling.
func (w *Weaver) weave(name string, data []byte, sister string) (res *Result, cw *classWeaver, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, cw, err = nil, nil, fmt.Errorf("%s: weaving failed: %v", name, r)
		}
	}()
	c, err := classfile.Parse(name, data)
	if err != nil {
		return nil, nil, err
	}
	cname := c.Name()
	// A copy: the name is a substring of the constant pool's one string,
	// which a driver keeping the Result (all classes' until the end)
	// would keep too.
	res = &Result{Name: strings.Clone(cname)}
	if c.Access&classfile.AccModule != 0 || w.own(cname) ||
		strings.HasSuffix(cname, SisterSuffix) || w.skip[cname] || !w.opts.Scope.Class(cname) ||
		!w.reach.Has(cname) {
		return res, nil, nil
	}
	if alreadyWoven(c) {
		res.AlreadyWoven = true
		return res, nil, nil
	}
	cw = &classWeaver{w: w, c: c, name: cname, file: sourceFile(c), hidden: sister != ""}
	if sister == "" {
		sister = cname + SisterSuffix
	}
	cw.sister = newSister(sister)
	// added is a <clinit> given to the class for static initialization
	// advice; dropped again if it is not woven (or excluded).
	added, err := w.addStaticInit(c)
	keep := false
	if err != nil {
		return nil, nil, fmt.Errorf("%s: adding <clinit>: %v", name, err)
	}
	for _, m := range c.Methods {
		mname, mdesc := c.MemberName(m), c.MemberDesc(m)
		if w.opts.Exclude != nil && w.opts.Exclude(cname, mname, mdesc) {
			continue
		}
		woven, warn := cw.weaveMethod(m, &res.Shadows)
		if warn != "" && m != added {
			res.Warnings = append(res.Warnings, warn)
		}
		if woven {
			res.MethodsWoven++
			keep = keep || m == added
		}
	}
	cw.entry = nil
	if added != nil && !keep {
		dropMember(c, added)
	}
	if w.parents != nil {
		var warns []string
		res.Parents, warns = w.addParents(c, cw.hidden)
		res.Warnings = append(res.Warnings, warns...)
	}
	res.Declared = cw.declared
	res.Warnings = append(res.Warnings, cw.warnings...)
	res.Missing = cw.missing
	res.advised, res.applied = cw.advised, cw.applied
	if res.MethodsWoven == 0 && len(res.Parents) == 0 {
		return res, nil, nil
	}
	res.Class = c.Bytes()
	cw.locateIDs()
	// Keep only what finish needs: WeavePath holds every class until
	// the ids are numbered.
	c.Pool.Release()
	cw.c, cw.w = nil, nil
	return res, cw, nil
}

// finish gives the class's join points the ids base, base+1, … and builds
// its sister class.
func (w *Weaver) finish(name string, res *Result, cw *classWeaver, base int32) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: building sister class: %v", name, r)
		}
	}()
	for i := range res.Shadows {
		res.Shadows[i].ID += base
	}
	cw.setIDs(res.Class, base)
	if cw.sister.empty() {
		return nil // every helper is SharedClass's
	}
	sb, err := cw.sister.bytes(base)
	if err != nil {
		return fmt.Errorf("%s: building sister class: %v", name, err)
	}
	res.Extra = map[string][]byte{cw.sister.name: sb}
	if cw.sister.holdsParts() {
		res.PartsBase, res.PartsSister = base, cw.sister.name
	}
	return nil
}

// alreadyWoven reports whether c is weft's output: it calls weft's guard
// or a sister class (whose entry helpers are the guard of a woven JDK's
// methods: fused.go).
func alreadyWoven(c *classfile.Class) bool {
	for i := 1; i < c.Pool.Len(); i++ {
		if c.Pool.Tag(uint16(i)) != classfile.TagClass {
			continue
		}
		if n := c.Pool.ClassName(uint16(i)); n == rtnames.Weft || strings.HasSuffix(n, SisterSuffix) {
			return true
		}
	}
	return false
}

// sourceFile returns the SourceFile attribute's value, or "".
func sourceFile(c *classfile.Class) string {
	if a := c.Attr(c.Attributes, "SourceFile"); a != nil && len(a.Info) == 2 {
		return c.Pool.Utf8(binary.BigEndian.Uint16(a.Info))
	}
	return ""
}

// exceptions returns the internal names in a method's Exceptions attribute.
func exceptions(c *classfile.Class, m *classfile.Member) []string {
	a := c.Attr(m.Attributes, "Exceptions")
	if a == nil || len(a.Info) < 2 {
		return nil
	}
	n := int(binary.BigEndian.Uint16(a.Info))
	var out []string
	for i := 0; i < n && 2+2*i+2 <= len(a.Info); i++ {
		out = append(out, c.Pool.ClassName(binary.BigEndian.Uint16(a.Info[2+2*i:])))
	}
	return out
}

// addMethodref and addFieldref add a reference to a runtime member.
func addMethodref(p *classfile.Pool, r rtnames.Ref) uint16 {
	return p.AddMethodref(r.Owner, r.Name, r.Desc, false)
}

func addFieldref(p *classfile.Pool, r rtnames.Ref) uint16 {
	return p.AddFieldref(r.Owner, r.Name, r.Desc)
}
