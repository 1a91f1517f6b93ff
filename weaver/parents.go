package weaver

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
)

// Declared parents (advice.ParentsDeclarer): an application weaving gives
// each class the interfaces its aspects declare for it, and with a
// delegate's class (defaultImpl) a field holding the object's delegate and
// a method per interface method the class lacks, which makes the delegate
// on first use and calls it. The weaver's hierarchy reports the new
// interfaces too, so that this(I), target(I) and I+ match as AspectJ's do.
// The JDK's classes get none: the JDK's loaders cannot see an
// application's interfaces.

// parentsView is what a MethodHierarchy adds to the classes it looks up:
// the declared parents of the classes that take them.
type parentsView struct {
	decl  advice.ParentsDeclarer
	takes func(*classfile.ClassInfo) bool
	seen  sync.Map // name → parentsEntry
}

// parentsEntry is a class's header as declared and as decorated.
type parentsEntry struct {
	declared, decorated *classfile.ClassInfo
}

// parentsHost is a hierarchy that can report declared parents:
// MethodHierarchy, and the hierarchies that embed it.
type parentsHost interface {
	declareParents(d advice.ParentsDeclarer, takes func(*classfile.ClassInfo) bool)
	declaredHierarchy() classfile.Hierarchy
	fromImage(class string) bool
	allMethods(class string) []advice.Member
}

// declareParents makes mh report the parents d declares for the classes
// takes accepts.
func (mh *MethodHierarchy) declareParents(d advice.ParentsDeclarer, takes func(*classfile.ClassInfo) bool) {
	mh.parents.Store(&parentsView{decl: d, takes: takes})
}

// declaredHierarchy returns the hierarchy as the class files declare it.
func (mh *MethodHierarchy) declaredHierarchy() classfile.Hierarchy { return mh.Hierarchy }

// fromImage reports whether class is in a package of a JDK image among
// mh's sources: a class of the JDK.
func (mh *MethodHierarchy) fromImage(class string) bool {
	for _, s := range mh.sources {
		if img, ok := s.(*classpath.ImageSource); ok && img.HasPackage(path.Dir(class)) {
			return true
		}
	}
	return false
}

// Lookup implements classfile.Hierarchy: the class as declared, with the
// interfaces declared parents add to it.
func (mh *MethodHierarchy) Lookup(name string) (*classfile.ClassInfo, error) {
	ci, err := mh.Hierarchy.Lookup(name)
	pv := mh.parents.Load()
	if err != nil || ci == nil || pv == nil {
		return ci, err
	}
	if e, ok := pv.seen.Load(name); ok && e.(parentsEntry).declared == ci {
		return e.(parentsEntry).decorated, nil
	}
	out := ci
	if pv.takes(ci) {
		for _, p := range pv.decl.DeclaredParents(ci, mh.Hierarchy) {
			if !slices.Contains(out.Interfaces, p.Interface) && (p.Impl == "" || !ci.IsInterface()) {
				if out == ci {
					c := *ci
					c.Interfaces = slices.Clone(ci.Interfaces)
					out = &c
				}
				out.Interfaces = append(out.Interfaces, p.Interface)
			}
		}
	}
	pv.seen.Store(name, parentsEntry{declared: ci, decorated: out})
	return out, nil
}

// takesParents reports whether the weaving may give class parents: a
// class it weaves, of the application, neither synthetic (a lambda's
// class is) nor an annotation nor a module.
func (w *Weaver) takesParents(ci *classfile.ClassInfo) bool {
	const not = classfile.AccSynthetic | classfile.AccAnnotation | classfile.AccModule
	name := ci.Name
	return w.opts.Mode == App && ci.Access&not == 0 && !w.own(name) && !strings.HasSuffix(name, SisterSuffix) &&
		!w.skip[name] && w.opts.Scope.Class(name) && (w.host == nil || !w.host.fromImage(name))
}

// addParents gives c the parents declared for it: the interfaces none of
// its supertypes implements yet, and for those with a delegate's class
// the delegating field and methods. It returns the interfaces added and
// warnings for those it could not add.
func (w *Weaver) addParents(c *classfile.Class, hidden bool) (added []string, warns []string) {
	name := c.Name()
	info := &classfile.ClassInfo{Name: name, Super: c.SuperName(), Interfaces: c.InterfaceNames(), Access: c.Access}
	declared := w.parents.DeclaredParents(info, w.declared())
	if len(declared) == 0 {
		return nil, nil
	}
	if w.opts.Mode == JDK || hidden || !w.takesParents(info) {
		if w.opts.Mode == JDK || w.host != nil && w.host.fromImage(name) {
			for _, p := range declared {
				warns = append(warns, fmt.Sprintf("%s: declare parents of %s (%s:%d) not applied: the JDK's classes cannot see an application's interfaces",
					javaName(name), javaName(p.Interface), path.Base(p.File), p.Line))
			}
		}
		return nil, warns
	}
	for _, p := range declared {
		if slices.Contains(info.Interfaces, p.Interface) || w.superImplements(info.Super, p.Interface) {
			continue // inherited, or declared by an earlier weaving
		}
		if p.Impl != "" && info.IsInterface() {
			warns = append(warns, fmt.Sprintf("%s: declare parents of %s (%s:%d) with defaultImpl not applied: an interface cannot hold a delegate",
				javaName(name), javaName(p.Interface), path.Base(p.File), p.Line))
			continue
		}
		if p.Impl != "" {
			if err := w.delegate(c, p); err != nil {
				warns = append(warns, fmt.Sprintf("%s: declare parents of %s (%s:%d) not applied: %v",
					javaName(name), javaName(p.Interface), path.Base(p.File), p.Line, err))
				continue
			}
		}
		c.Interfaces = append(c.Interfaces, c.Pool.AddClass(p.Interface))
		info.Interfaces = append(info.Interfaces, p.Interface)
		added = append(added, p.Interface)
	}
	return added, warns
}

// declared returns the weaving's hierarchy as the class files declare it.
func (w *Weaver) declared() classfile.Hierarchy {
	if w.host != nil {
		return w.host.declaredHierarchy()
	}
	return w.opts.Hierarchy
}

// superImplements reports whether class super or one of its superclasses
// implements iface, declared parents included.
func (w *Weaver) superImplements(super, iface string) bool {
	h := w.opts.Hierarchy
	if super == "" || h == nil {
		return false
	}
	seen := map[string]bool{}
	queue := []string{super}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == iface {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		if ci, err := h.Lookup(n); err == nil && ci != nil {
			if ci.Super != "" {
				queue = append(queue, ci.Super)
			}
			queue = append(queue, ci.Interfaces...)
		}
	}
	return false
}

// delegate adds to c the field holding its delegate of p.Impl and a
// method for each abstract method of p.Interface (and its
// superinterfaces) that c neither declares nor inherits from a
// superclass:
//
//	public R m(A a) {
//		I d = this.field;
//		if (d == null) { this.field = new Impl(); d = this.field; }
//		return d.m(a);
//	}
func (w *Weaver) delegate(c *classfile.Class, p *advice.Parents) error {
	mh, ok := w.opts.Hierarchy.(advice.MethodHierarchy)
	if !ok || w.host == nil {
		return fmt.Errorf("the weaving's hierarchy cannot list %s's methods", javaName(p.Interface))
	}
	methods, err := interfaceMethods(w.host, mh, p.Interface)
	if err != nil {
		return err
	}
	pool := c.Pool
	field := "weft$parents$" + strings.NewReplacer("/", "_", "$", "_").Replace(p.Interface)
	fdesc := "L" + p.Interface + ";"
	if c.FindField(field, fdesc) == nil {
		c.Fields = append(c.Fields, &classfile.Member{Access: classfile.AccPrivate | classfile.AccTransient | classfile.AccSynthetic,
			Name: pool.AddUtf8(field), Desc: pool.AddUtf8(fdesc)})
	}
	fref := pool.AddFieldref(c.Name(), field, fdesc)
	for _, m := range methods {
		if c.FindMethod(m.Name, m.Desc) != nil || w.superHasMethod(mh, c.SuperName(), m.Name, m.Desc) {
			continue
		}
		if err := delegateMethod(c, m, p, fref, w.opts.Hierarchy); err != nil {
			return fmt.Errorf("delegating %s%s: %v", m.Name, m.Desc, err)
		}
	}
	return nil
}

// interfaceMethods returns the abstract methods of iface and its
// superinterfaces, each name and descriptor once.
func interfaceMethods(host parentsHost, mh advice.MethodHierarchy, iface string) ([]advice.Member, error) {
	var out []advice.Member
	seen := map[string]bool{}
	queue := []string{iface}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		ci, err := mh.Lookup(n)
		if err != nil || ci == nil {
			return nil, fmt.Errorf("interface %s is not found", javaName(n))
		}
		if !ci.IsInterface() {
			return nil, fmt.Errorf("%s is not an interface", javaName(n))
		}
		queue = append(queue, ci.Interfaces...)
		for _, m := range host.allMethods(n) {
			const abstractOnly = classfile.AccAbstract | classfile.AccStatic
			if m.Access&abstractOnly != classfile.AccAbstract || seen[m.Name+m.Desc] {
				continue
			}
			seen[m.Name+m.Desc] = true
			out = append(out, m)
		}
	}
	return out, nil
}

// superHasMethod reports whether a superclass from super up declares a
// concrete method name+desc, which the class inherits.
func (w *Weaver) superHasMethod(mh advice.MethodHierarchy, super, name, desc string) bool {
	for n := super; n != ""; {
		ms, _ := mh.DeclaredMethods(n, name)
		for _, m := range ms {
			if m.Desc == desc && m.Access&(classfile.AccAbstract|classfile.AccStatic) == 0 {
				return true
			}
		}
		ci, err := mh.Lookup(n)
		if err != nil || ci == nil {
			return false
		}
		n = ci.Super
	}
	return false
}

// delegateMethod adds to c the method m of p.Interface delegating to the
// object in field fref.
func delegateMethod(c *classfile.Class, m advice.Member, p *advice.Parents, fref uint16, h classfile.Hierarchy) error {
	pool := c.Pool
	mt, err := classfile.ParseMethodDesc(m.Desc)
	if err != nil {
		return err
	}
	call := classfile.NewLabel()
	insns := []classfile.Insn{
		{Op: classfile.OpAload, Index: 0},
		{Op: classfile.OpGetfield, Index: fref},
		{Op: classfile.OpDup},
		{Op: classfile.OpIfnonnull, Label: call},
		{Op: classfile.OpPop},
		{Op: classfile.OpAload, Index: 0},
		{Op: classfile.OpNew, Index: pool.AddClass(p.Impl)},
		{Op: classfile.OpDup},
		{Op: classfile.OpInvokespecial, Index: pool.AddMethodref(p.Impl, "<init>", "()V", false)},
		{Op: classfile.OpPutfield, Index: fref},
		{Op: classfile.OpAload, Index: 0},
		{Op: classfile.OpGetfield, Index: fref},
		{Op: classfile.OpLabel, Label: call},
	}
	slot := uint16(1)
	for _, t := range mt.Params {
		insns = append(insns, classfile.Insn{Op: t.LoadOp(), Index: slot})
		slot += uint16(t.Size())
	}
	insns = append(insns,
		classfile.Insn{Op: classfile.OpInvokeinterface, Index: pool.AddMethodref(p.Interface, m.Name, m.Desc, true)},
		classfile.Insn{Op: mt.Return.ReturnOp()})
	method := &classfile.Member{Access: classfile.AccPublic, Name: pool.AddUtf8(m.Name), Desc: pool.AddUtf8(m.Desc)}
	if len(m.Exceptions) > 0 {
		method.Attributes = append(method.Attributes, exceptionsAttr(pool, m.Exceptions))
	}
	code := &classfile.Code{Insns: insns}
	if err := code.Encode(c, method, classfile.EncodeOptions{Frames: true, Hierarchy: h}); err != nil {
		return err
	}
	c.Methods = append(c.Methods, method)
	return nil
}

// exceptionsAttr is an Exceptions attribute naming classes.
func exceptionsAttr(pool *classfile.Pool, classes []string) classfile.Attribute {
	b := []byte{byte(len(classes) >> 8), byte(len(classes))}
	for _, e := range classes {
		i := pool.AddClass(e)
		b = append(b, byte(i>>8), byte(i))
	}
	return classfile.Attribute{Name: pool.AddUtf8("Exceptions"), Info: b}
}

// javaName writes an internal class name as Java does: "java.util.Map$Entry".
func javaName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }
