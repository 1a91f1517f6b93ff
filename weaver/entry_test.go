package weaver

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// executionsOnly is a testMatcher whose advice can match executions only,
// as examples/count's pointcut: methods then take weaveEntry's shortcut.
type executionsOnly struct{ testMatcher }

func (executionsOnly) ShadowKinds() advice.KindSet {
	return 1<<advice.MethodExecution | 1<<advice.ConstructorExecution
}

// TestEntryShortcutMatchesDecoding weaves guava with before advice at every
// execution twice, with weaveEntry's shortcut (the body kept as it is,
// classfile.PrependCode) and with every method decoded and encoded again,
// and compares them: the same join points, ids, warnings and sister
// classes, and every woven method the same instructions, exception
// handlers and line numbers (frames and instruction forms may differ: the
// shortcut keeps javac's). The shortcut's jar then links under
// -Xverify:all.
func TestEntryShortcutMatchesDecoding(t *testing.T) {
	t.Parallel() // see jdkOnce
	const guava = "/usr/share/java/guava.jar"
	g, err := classpath.OpenSource(guava, jvmtest.JavaHome(t))
	if err != nil {
		t.Fatalf("%v: apt-get install -y libguava-java", err)
	}
	defer g.Close()
	h := HierarchyOf(g, mustJDK(t))
	hit := adv(advice.Before, 0, "hit", "(I)V", val(advice.JoinPointID, 0, "I"))
	m := executionsOnly{testMatcher{{kind: advice.MethodExecution, adv: hit}, {kind: advice.ConstructorExecution, adv: hit}}}
	dir := t.TempDir()
	weave := func(decodeAll bool, out string) *Stats {
		st, err := New(m, []*advice.Advice{hit}, Options{Hierarchy: h, decodeAll: decodeAll}).WeavePath(guava, out)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	fastJar, slowJar := filepath.Join(dir, "fast.jar"), filepath.Join(dir, "slow.jar")
	fast, slow := weave(false, fastJar), weave(true, slowJar)
	if fast.Woven < 1500 || fast.Woven != slow.Woven || fast.MethodsWoven != slow.MethodsWoven ||
		!reflect.DeepEqual(fast.Warnings, slow.Warnings) {
		t.Fatalf("shortcut: %d classes, %d methods woven, warnings %v; decoding: %d, %d, %v",
			fast.Woven, fast.MethodsWoven, fast.Warnings, slow.Woven, slow.MethodsWoven, slow.Warnings)
	}
	if len(fast.Shadows) != len(slow.Shadows) {
		t.Fatalf("%d join points, decoding %d", len(fast.Shadows), len(slow.Shadows))
	}
	for i := range fast.Shadows {
		if f, s := fast.Shadows[i], slow.Shadows[i]; f.String() != s.String() || f.ID != s.ID {
			t.Fatalf("join point %d: %s (id %d), decoding %s (id %d)", i, f.String(), f.ID, s.String(), s.ID)
		}
	}
	fj, err := classpath.OpenJar(fastJar)
	if err != nil {
		t.Fatal(err)
	}
	defer fj.Close()
	sj, err := classpath.OpenJar(slowJar)
	if err != nil {
		t.Fatal(err)
	}
	defer sj.Close()
	methods, identical, ctors := 0, 0, 0
	err = sj.Walk(func(e classpath.ClassEntry) error {
		name := strings.TrimSuffix(e.Path, ".class")
		sb, err := e.Read()
		if err != nil {
			return err
		}
		fb, err := fj.Class(name)
		if err != nil {
			return err
		}
		if string(fb) == string(sb) {
			return nil
		}
		if strings.HasSuffix(name, SisterSuffix) {
			return fmt.Errorf("sister class %s differs", name)
		}
		n, same, kept, err := sameMethods(name, fb, sb)
		methods += n
		identical += same
		ctors += kept
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d classes, %d methods woven; of the methods of classes whose bytes differ, %d of %d identical, %d constructors not", fast.Woven, fast.MethodsWoven, identical, methods, ctors)
	if ctors < 500 {
		// Had constructors taken the decoding path both times, their
		// bytes would be the same.
		t.Errorf("only %d constructors differ from the decoding path's: the shortcut does not keep their bodies", ctors)
	}

	// The runtime on the class path: a sister class registers with weft.rt.Parts.
	src := runtimeSources()
	src["Link.java"] = string(must(os.ReadFile("testdata/guava/Link.java")))
	link := jvmtest.Compile(t, src)
	out, _ := jvmtest.Run(t, "-Xverify:all", "-cp", fastJar+string(filepath.ListSeparator)+link, "Link", fastJar)
	if !strings.HasPrefix(out, "ok ") || !strings.Contains(out, " verify 0 other 0 ") {
		t.Errorf("linking the shortcut's jar: %s", out)
	}
}

// sameMethods compares the methods of two weavings of a class: the same
// instructions (branch targets as instruction indexes), exception handlers
// and line numbers. It returns how many methods it compared and how many
// were byte for byte the same, and how many constructors were not (kept
// by the shortcut: javac's frames and forms).
func sameMethods(name string, fb, sb []byte) (methods, identical, ctors int, err error) {
	fc, err := classfile.Parse(name, fb)
	if err != nil {
		return 0, 0, 0, err
	}
	sc, err := classfile.Parse(name, sb)
	if err != nil {
		return 0, 0, 0, err
	}
	if len(fc.Methods) != len(sc.Methods) {
		return 0, 0, 0, fmt.Errorf("%s: %d methods, decoding %d", name, len(fc.Methods), len(sc.Methods))
	}
	for i, fm := range fc.Methods {
		sm := sc.Methods[i]
		where := name + "." + fc.MemberName(fm) + fc.MemberDesc(fm)
		fcode, err := classfile.DecodeCode(fc, fm)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%s: %v", where, err)
		}
		scode, err := classfile.DecodeCode(sc, sm)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%s: %v", where, err)
		}
		if fcode == nil || scode == nil {
			continue
		}
		methods++
		if string(fc.Attr(fm.Attributes, "Code").Info) == string(sc.Attr(sm.Attributes, "Code").Info) {
			identical++
		} else if fc.MemberName(fm) == "<init>" {
			ctors++
		}
		if f, s := shape(fc, fcode), shape(sc, scode); f != s {
			return 0, 0, 0, fmt.Errorf("%s: woven code differs:\n%s\ndecoding:\n%s", where, f, s)
		}
	}
	return methods, identical, ctors, nil
}

// shape formats a decoded body independently of its encoding: the
// instructions with their operands (constants by value), branch targets,
// handlers and line entries as instruction indexes; nops left out (the
// shortcut adds some where a switch's padding needs them).
func shape(c *classfile.Class, code *classfile.Code) string {
	at := map[*classfile.Label]int{}
	n := 0
	for _, in := range code.Insns {
		if in.Op == classfile.OpLabel {
			at[in.Label] = n
		} else if in.Op != classfile.OpNop {
			n++
		}
	}
	var b strings.Builder
	target := func(l *classfile.Label) string { return fmt.Sprintf("@%d", at[l]) }
	for _, in := range code.Insns {
		if in.Op == classfile.OpLabel || in.Op == classfile.OpNop {
			continue // nops: the shortcut's keep a switch's padding
		}
		fmt.Fprintf(&b, "%s %d %s", classfile.OpNames[in.Op], in.Const, operand(c, in))
		if in.Label != nil {
			b.WriteString(" " + target(in.Label))
		}
		if in.Switch != nil {
			b.WriteString(" " + target(in.Switch.Default))
			for _, l := range in.Switch.Targets {
				b.WriteString(" " + target(l))
			}
		}
		b.WriteByte('\n')
	}
	for _, x := range code.Handlers {
		fmt.Fprintf(&b, "handler %s %s %s %s\n", target(x.Start), target(x.End), target(x.Handler), c.Pool.ClassName(x.CatchType))
	}
	for _, l := range code.Lines {
		fmt.Fprintf(&b, "line %s %d\n", target(l.Start), l.Line)
	}
	return b.String()
}

// operand formats an instruction's index: a local slot, or the constant
// it names (pool indexes may differ between two weavings of a class).
func operand(c *classfile.Class, in classfile.Insn) string {
	switch in.Op {
	case classfile.OpLdc, classfile.OpLdc2W, classfile.OpGetstatic, classfile.OpPutstatic, classfile.OpGetfield,
		classfile.OpPutfield, classfile.OpInvokevirtual, classfile.OpInvokespecial, classfile.OpInvokestatic,
		classfile.OpInvokeinterface, classfile.OpInvokedynamic, classfile.OpNew, classfile.OpAnewarray,
		classfile.OpCheckcast, classfile.OpInstanceof, classfile.OpMultianewarray:
		return constant(c, in.Index)
	}
	return fmt.Sprint(in.Index)
}

func constant(c *classfile.Class, i uint16) string {
	p := c.Pool
	k := p.Get(i)
	switch k.Tag {
	case classfile.TagClass, classfile.TagString, classfile.TagMethodType:
		return fmt.Sprintf("%d:%s", k.Tag, p.Utf8(k.A))
	case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
		o, n, d := p.MemberRef(i)
		return fmt.Sprintf("%d:%s.%s%s", k.Tag, o, n, d)
	case classfile.TagMethodHandle:
		return fmt.Sprintf("%d:%d:%s", k.Tag, k.A, constant(c, k.B))
	case classfile.TagDynamic, classfile.TagInvokeDynamic:
		n, d := p.DynamicNameAndType(i)
		return fmt.Sprintf("%d:%d:%s%s", k.Tag, k.A, n, d)
	}
	return fmt.Sprintf("%d:%d", k.Tag, k.Num)
}
