package weaver

import (
	"slices"
	"strconv"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// A sister class holding static parts is an IntFunction (its static parts
// by id: an interface every module can see, as a superinterface must be
// when the class is defined, before load-time weaving could export weft.rt
// to a proxy's module or a module layer's) and registers itself with
// weft.rt.Parts when it initializes, so that advice
// passed only a join point's id (one int: a woven JDK's methods pass it to
// a helper every class shares, fused.go) can find the static part by id
// when it needs it, at a report's end say:
//
//	final class C$weft$jp implements IntFunction {
//	    static { Parts.register(base, count, new C$weft$jp()); }
//	    private C$weft$jp() {}
//	    public Object apply(int id) { ... } // partsSource
//	}
//
// A sister that is its around shadows' closure (a Proceed) registers an
// instance made by the closure's constructor, new C$weft$jp(null, -1).
// The registration runs no woven code (Parts keeps plain arrays), so it
// may run wherever the sister initializes: while the JVM boots, or outside
// any bypass.

// A static part passed to no advice, whose id is, is not loaded by a
// method of its own, as thisJoinPointStaticPart's are (partsMethods): the
// sister keeps it in string constants, a line each ("REL\tKIND\tDECLARING
// TYPE\tNAME\tSIGNATURE\tWITHIN\tFILE\tLINE\tMODIFIERS"), which
// Parts.decode reads when asked for it. A method and nine constants per
// join point made weaving guava with an aspect passing joinPointId half as
// slow again; one string per class costs little.

// The length of a constant of part lines.
const (
	// partLinesMax bounds a string constant of part lines, in UTF-8
	// bytes: modified UTF-8, at most half as long again, stays under
	// the class file's 65,535.
	partLinesMax = 30000
)

// partLines returns the lines of the static parts of parts, by relative
// id, in string constants of at most partLinesMax bytes, and the last
// relative id of each.
func partLines(parts map[int32]*jpInfo) (texts []string, lasts []int32) {
	ids := make([]int32, 0, len(parts))
	for id := range parts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b, line []byte
	var last int32
	for _, id := range ids {
		j := parts[id]
		line = strconv.AppendInt(line[:0], int64(id), 10)
		for _, f := range []string{j.kind, j.declType, j.name, j.sig, j.within, j.file} {
			line = append(append(line, '\t'), f...)
		}
		line = strconv.AppendInt(append(line, '\t'), int64(j.line), 10)
		line = strconv.AppendInt(append(line, '\t'), int64(j.mods), 10)
		line = append(line, '\n')
		if len(b) > 0 && len(b)+len(line) > partLinesMax {
			texts, lasts = append(texts, string(b)), append(lasts, last)
			b = b[:0]
		}
		b = append(b, line...)
		last = id
	}
	if len(b) > 0 {
		texts, lasts = append(texts, string(b)), append(lasts, last)
	}
	return texts, lasts
}

// lineSafe reports whether j's strings hold no tab or newline (a class
// file's names may), so that it can be a line of partLines.
func lineSafe(j *jpInfo) bool {
	for _, f := range []string{j.kind, j.declType, j.name, j.sig, j.within, j.file} {
		if strings.ContainsAny(f, "\t\n") {
			return false
		}
	}
	return true
}

// sortIDParts leaves in s.idParts the parts no method loads and whose
// strings fit a line; the others it moves to s.parts (s.mu held).
func (s *sister) sortIDParts() {
	for id, j := range s.idParts {
		if _, ok := s.parts[id]; ok {
			delete(s.idParts, id)
		} else if !lineSafe(j) {
			s.parts[id] = j
			delete(s.idParts, id)
		}
	}
}

// partsSource makes the sister an IntFunction: the interface, the method
// apply, and, unless it is a closure, a constructor. table holds the parts
// jp loads, lines the others (sortIDParts).
//
//	public Object apply(int id) {
//	    int rel = id - base; JoinPointStaticPart p;
//	    if (rel < 0) return null;
//	    if (rel < tableCount && (p = jp(rel)) != null) return p;
//	    if (rel <= LAST1) return Parts.decode(id, rel, "lines..."); // per constant but the last
//	    return Parts.decode(id, rel, "lines...");
//	}
//
// The constants are in order of relative id, so only the one that may
// hold rel is read: the JVM resolves a string constant, tens of kilobytes
// for a large class, at its first ldc.
func (g *sisterGen) partsSource(table, lines map[int32]*jpInfo) error {
	var tableCount int32
	for id := range table {
		tableCount = max(tableCount, id+1)
	}
	g.partsCount = tableCount
	for id := range lines {
		g.partsCount = max(g.partsCount, id+1)
	}
	p := g.c.Pool
	g.c.Interfaces = append(g.c.Interfaces, p.AddClass(rtnames.PartsSource))
	if !g.isClosure {
		m := &classfile.Member{Access: classfile.AccPrivate | classfile.AccSynthetic,
			Name: p.AddUtf8("<init>"), Desc: p.AddUtf8("()V")}
		g.c.Methods = append(g.c.Methods, m)
		g.insns = nil
		g.idx(classfile.OpAload, 0)
		g.invoke(classfile.OpInvokespecial, "java/lang/Object", "<init>", "()V")
		g.op(classfile.OpReturn)
		code := &classfile.Code{MaxStack: 1, MaxLocals: 1, Insns: g.insns}
		if err := code.Encode(g.c, m, classfile.EncodeOptions{}); err != nil {
			return err
		}
	}
	m := &classfile.Member{Access: classfile.AccPublic | classfile.AccSynthetic,
		Name: p.AddUtf8(rtnames.PartsSourceApply.Name), Desc: p.AddUtf8(rtnames.PartsSourceApply.Desc)}
	g.c.Methods = append(g.c.Methods, m)
	locals := []classfile.VType{{Kind: classfile.VObject, Class: g.sister}, {Kind: classfile.VInteger}, {Kind: classfile.VInteger}}
	none, ret := classfile.NewLabel(), classfile.NewLabel()
	code := &classfile.Code{MaxStack: 3, MaxLocals: 3}
	g.insns = nil
	g.idx(classfile.OpIload, 1)
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(g.base)})
	g.op(classfile.OpIsub)
	g.idx(classfile.OpIstore, 2)
	g.idx(classfile.OpIload, 2)
	g.add(classfile.Insn{Op: classfile.OpIflt, Label: none})
	if tableCount > 0 {
		next := classfile.NewLabel()
		g.idx(classfile.OpIload, 2)
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(tableCount)})
		g.add(classfile.Insn{Op: classfile.OpIfIcmpge, Label: next})
		g.idx(classfile.OpIload, 2)
		g.invoke(classfile.OpInvokestatic, g.sister, partsMethod, partsDesc)
		g.op(classfile.OpDup) // found in the table: returned
		g.add(classfile.Insn{Op: classfile.OpIfnonnull, Label: ret})
		g.op(classfile.OpPop)
		g.add(classfile.Insn{Op: classfile.OpLabel, Label: next})
		code.Frames = append(code.Frames, classfile.Frame{At: next, Locals: locals})
	}
	texts, lasts := partLines(lines)
	for i, text := range texts {
		next := classfile.NewLabel()
		if i < len(texts)-1 {
			g.idx(classfile.OpIload, 2)
			g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(lasts[i])})
			g.add(classfile.Insn{Op: classfile.OpIfIcmpgt, Label: next})
		}
		g.idx(classfile.OpIload, 1)
		g.idx(classfile.OpIload, 2)
		g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddString(text)})
		g.invokeRuntime(rtnames.PartsDecode)
		g.op(classfile.OpAreturn)
		if i < len(texts)-1 {
			g.add(classfile.Insn{Op: classfile.OpLabel, Label: next})
			code.Frames = append(code.Frames, classfile.Frame{At: next, Locals: locals})
		}
	}
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: none})
	g.op(classfile.OpAconstNull)
	g.add(classfile.Insn{Op: classfile.OpLabel, Label: ret})
	g.op(classfile.OpAreturn)
	code.Frames = append(code.Frames, classfile.Frame{At: none, Locals: locals})
	if tableCount > 0 { // ret is a jump target
		code.Frames = append(code.Frames,
			classfile.Frame{At: ret, Locals: locals, Stack: []classfile.VType{{Kind: classfile.VObject, Class: rtnames.JoinPointStaticPart}}})
	}
	code.Insns = g.insns
	return code.Encode(g.c, m, classfile.EncodeOptions{})
}

// registerParts emits, in the static initializer, the registration of the
// sister's static parts, if it holds any.
func (g *sisterGen) registerParts() {
	if g.partsCount == 0 {
		return
	}
	p := g.c.Pool
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(g.base)})
	g.add(classfile.Insn{Op: classfile.OpLdc, Index: p.AddInt(g.partsCount)})
	g.idx(classfile.OpNew, p.AddClass(g.sister))
	g.op(classfile.OpDup)
	if g.isClosure {
		g.op(classfile.OpAconstNull)
		g.op(classfile.OpIconstM1)
		g.invoke(classfile.OpInvokespecial, g.sister, "<init>", "(Ljava/lang/Object;I)V")
	} else {
		g.invoke(classfile.OpInvokespecial, g.sister, "<init>", "()V")
	}
	g.invokeRuntime(rtnames.PartsRegister)
}
