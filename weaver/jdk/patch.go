package jdk

import (
	"fmt"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// The JDK-mode runtime scheme (see docs/jdk.md):
//
//   - DIB, the per-thread bypass flag, is the boolean field rtnames.ThreadDIBField
//     added to java.lang.Thread. The constructor that initializes every
//     Thread (the one calling Object.<init>) copies it from the creating
//     thread, so a thread started inside advice runs unadvised too.
//   - BIB, the bootstrap flag, is the static weft.rt.BIB.ready, a class with
//     no <clinit> added to java.base: reading it initializes nothing. It is
//     false until the end of System.initPhase3, the last step of VM startup
//     before the launcher loads the main class, which calls BIB.setReady().
//
// Both patches insert straight-line code just before each `return`, so they
// need no new stack map frames and apply equally to a class the weaver has
// already woven (whose original and woven bodies both end in returns).

// PatchThread adds the DIB field to java.lang.Thread's class file and makes
// every new Thread inherit its creator's flag.
func PatchThread(data []byte) ([]byte, error) {
	c, err := classfile.Parse("java/lang/Thread", data)
	if err != nil {
		return nil, err
	}
	if c.Name() != "java/lang/Thread" {
		return nil, fmt.Errorf("PatchThread: %s is not java/lang/Thread", c.Name())
	}
	for _, f := range c.Fields {
		if c.MemberName(f) == rtnames.ThreadDIBField {
			return nil, fmt.Errorf("java/lang/Thread: already has a field %s", rtnames.ThreadDIBField)
		}
	}
	p := c.Pool
	// public, not volatile: only its own thread writes it after the
	// constructor, and its creator wrote it before Thread.start.
	c.Fields = append(c.Fields, &classfile.Member{
		Access: classfile.AccPublic | classfile.AccTransient,
		Name:   p.AddUtf8(rtnames.ThreadDIBField), Desc: p.AddUtf8("Z"),
	}, &classfile.Member{
		// weft.rt.Local's slot: per-thread state for advice (a profiler's
		// calling-context stack) without ThreadLocal, whose map woven code
		// may be in the middle of changing when advice runs. Not inherited.
		Access: classfile.AccPublic | classfile.AccTransient,
		Name:   p.AddUtf8(rtnames.ThreadLocalField), Desc: p.AddUtf8("Ljava/lang/Object;"),
	}, &classfile.Member{
		// weft.rt.CflowLocal's slot: the thread's cflow state, its own
		// field so advice using weft.rt.Local keeps that one. Not inherited.
		Access: classfile.AccPublic | classfile.AccTransient,
		Name:   p.AddUtf8(rtnames.ThreadCflowField), Desc: p.AddUtf8("Ljava/lang/Object;"),
	})
	field := p.AddFieldref("java/lang/Thread", rtnames.ThreadDIBField, "Z")
	current := p.AddMethodref("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", false)
	patched := 0
	for _, m := range c.Methods {
		if c.MemberName(m) != "<init>" {
			continue
		}
		code, err := classfile.DecodeCode(c, m)
		if err != nil || code == nil {
			return nil, fmt.Errorf("java/lang/Thread.<init>%s: %v", c.MemberDesc(m), err)
		}
		if delegates(c, code) {
			continue // this(...): the delegate copies the flag
		}
		// this.weft$dib = Thread.currentThread().weft$dib; — for the VM's
		// initial thread, currentThread() is the thread being built: false.
		code.Insns = beforeReturns(code.Insns, []classfile.Insn{
			{Op: classfile.OpAload0},
			{Op: classfile.OpInvokestatic, Index: current},
			{Op: classfile.OpGetfield, Index: field},
			{Op: classfile.OpPutfield, Index: field},
		})
		if code.MaxStack < 2 {
			code.MaxStack = 2
		}
		if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
			return nil, err
		}
		patched++
	}
	if patched == 0 {
		return nil, fmt.Errorf("java/lang/Thread: no constructor calls Object.<init>: unknown Thread layout")
	}
	return c.Bytes(), nil
}

// PatchSystem makes java.lang.System.initPhase3 clear the bootstrap flag
// (call weft.rt.BIB.setReady()) when it returns.
func PatchSystem(data []byte) ([]byte, error) {
	c, err := classfile.Parse("java/lang/System", data)
	if err != nil {
		return nil, err
	}
	m := c.FindMethod("initPhase3", "()V")
	if m == nil {
		return nil, fmt.Errorf("java/lang/System: no initPhase3()V: this JDK starts up differently (JDK 9+ expected)")
	}
	code, err := classfile.DecodeCode(c, m)
	if err != nil || code == nil {
		return nil, fmt.Errorf("java/lang/System.initPhase3: %v", err)
	}
	ready := c.Pool.AddMethodref(rtnames.BIBSetReady.Owner, rtnames.BIBSetReady.Name, rtnames.BIBSetReady.Desc, false)
	code.Insns = beforeReturns(code.Insns, []classfile.Insn{{Op: classfile.OpInvokestatic, Index: ready}})
	if err := code.Encode(c, m, classfile.EncodeOptions{}); err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

// delegates reports whether a constructor calls this(...) rather than
// super(...): it invokes an <init> of its own class on its receiver. Thread's
// delegating constructors build no other Thread, so any invokespecial of
// the class's own <init> tells.
func delegates(c *classfile.Class, code *classfile.Code) bool {
	for _, in := range code.Insns {
		if in.Op == classfile.OpInvokespecial {
			owner, name, _ := c.Pool.MemberRef(in.Index)
			if name == "<init>" && owner == c.Name() {
				return true
			}
		}
	}
	return false
}

// beforeReturns inserts add before every void `return`, after any labels
// that precede it, so jumps to the return run the inserted code too.
func beforeReturns(insns []classfile.Insn, add []classfile.Insn) []classfile.Insn {
	out := make([]classfile.Insn, 0, len(insns)+4*len(add))
	for _, in := range insns {
		if in.Op == classfile.OpReturn {
			out = append(out, add...)
		}
		out = append(out, in)
	}
	return out
}
