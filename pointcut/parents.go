package pointcut

import (
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// declare parents: the classes a type pattern matches implement more
// interfaces, and with defaultImpl delegate the interface's methods to an
// object of a class the aspect names, as AspectJ's @DeclareParents does.

// parentsDecl is a compiled declare parents, one per interface named.
type parentsDecl struct {
	types typePat
	p     *advice.Parents
}

// parents compiles `declare parents: T implements I, ... [defaultImpl C];`
// declared at pos.
func (c *compiler) parents(sc *aspectScope, pos Position, dp *DeclareParents) []*parentsDecl {
	nerr := len(c.errs)
	types := c.typePattern(dp.Types, false)
	if dp.DefaultImpl != nil && len(dp.Interfaces) > 1 {
		c.errorf(dp.DefaultImpl.Pos, "declare parents once per interface, each with its own defaultImpl",
			"defaultImpl delegates one interface, and %d are named", len(dp.Interfaces))
	}
	impl := ""
	if dp.DefaultImpl != nil {
		impl, _ = c.parentsClass(dp.DefaultImpl, false)
	}
	var out []*parentsDecl
	for _, tn := range dp.Interfaces {
		iface, ok := c.parentsClass(tn, true)
		if !ok {
			continue
		}
		out = append(out, &parentsDecl{types: types, p: &advice.Parents{Interface: iface, Impl: impl,
			Aspect: sc.a.Name, File: sc.file.Name, Line: pos.Line}})
	}
	if len(c.errs) > nerr {
		return nil
	}
	return out
}

// parentsClass resolves the interface (iface) or the delegate's class
// that a declare parents names. Where the advice class path has it, it is
// checked to be an interface, or a concrete class with a public no-argument
// constructor.
func (c *compiler) parentsClass(tn *TypeName, iface bool) (string, bool) {
	what := "the delegate's class"
	if iface {
		what = "the interface"
	}
	desc, err := typeNameDesc(tn.Parts, len(tn.Dims))
	if err == nil && !strings.HasPrefix(desc, "L") {
		err = constErr("declare parents names classes and interfaces, not " + classfile.Type(desc).JavaName())
	}
	if err != nil {
		c.errorf(tn.Pos, c.qualifyHint("write the fully qualified name", tn.Parts[0]), "%s: %v", what, err)
		return "", false
	}
	name := classfile.Type(desc).InternalName()
	if c.classes.adviceCP == "" && c.classes.advice == nil {
		return name, true // nothing to check against
	}
	cl, name, err := c.classes.nested(name)
	javaName := strings.ReplaceAll(name, "/", ".")
	switch {
	case err != nil:
		c.warnf(tn.Pos, "put it on the advice class path to have it checked", "%s %s is not found: declared as written", what, javaName)
	case iface && cl.Access&classfile.AccInterface == 0:
		c.errorf(tn.Pos, "declare parents adds interfaces; weft does not change superclasses", "%s is not an interface", javaName)
		return "", false
	case !iface && cl.Access&(classfile.AccInterface|classfile.AccAbstract) != 0:
		c.errorf(tn.Pos, "defaultImpl names a concrete class implementing the interface", "%s is abstract", javaName)
		return "", false
	case !iface:
		if m := cl.FindMethod("<init>", "()V"); m == nil || m.Access&classfile.AccPublic == 0 {
			c.errorf(tn.Pos, "give "+javaName+" a public constructor without parameters: each object's delegate is made with it",
				"%s has no public no-argument constructor", javaName)
			return "", false
		}
	}
	return name, true
}

// DeclaredParents implements advice.ParentsDeclarer: the declarations
// whose pattern matches class, but for the interface and the delegate's
// class themselves.
func (p *Program) DeclaredParents(class *classfile.ClassInfo, h classfile.Hierarchy) []*advice.Parents {
	var out []*advice.Parents
	desc := ""
	for _, d := range p.parents {
		if class.Name == d.p.Interface || class.Name == d.p.Impl {
			continue
		}
		if desc == "" {
			desc = "L" + class.Name + ";"
		}
		if d.types.match(desc, h) {
			out = append(out, d.p)
		}
	}
	return out
}

// DeclaresParents implements advice.ParentsDeclarer.
func (p *Program) DeclaresParents() bool { return len(p.parents) > 0 }

var _ advice.ParentsDeclarer = (*Program)(nil)
