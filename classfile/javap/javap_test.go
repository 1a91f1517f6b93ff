package javap

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/internal/parallel"
)

// jdkSource opens the modules image of the test JDK, closed with the test.
func jdkSource(t testing.TB) *classpath.ImageSource {
	t.Helper()
	src, err := classpath.OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// jdkClass parses the named class of the test JDK.
func jdkClass(t testing.TB, name string) *classfile.Class {
	t.Helper()
	b, err := jdkSource(t).Class(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dumpSample uses every operand kind the listing formats.
const dumpSample = `package d;
import java.util.*;
public class Sample {
    static final long BIG = 1234567890123L;
    public static int sw(int k, String s, List<String> l) throws Exception {
        int r = 0;
        switch (k) { case 0: r = 1; break; case 1: r = 7; break; case 2: r = 9; break; case 3: r = 4; break; default: r = -1; }
        switch (k) { case -100000: r += 2; break; case 5: r += 3; break; case 1000000: r += 5; break; }
        long big = BIG * 3;
        double d = 2.5 * k;
        float f = 1.5f;
        r = r * 300;         // sipush
        r += 1000;           // wide iinc
        int[][] grid = new int[3][4];
        int[] row = new int[2];
        Object o = s;
        if (o instanceof String) { r += ((String) o).length(); }
        synchronized (l) { r += l.size(); }
        try {
            Runnable run = () -> System.out.println("hello");
            run.run();
        } catch (IllegalStateException | IllegalArgumentException e) {
            r = -2;
        } finally {
            r++;
        }
        return r + (int) big + (int) d + (int) f + grid.length + row.length;
    }
}`

var javapInsn = regexp.MustCompile(`^\s+(\d+): ([a-z][a-z_0-9]*)`)

// TestDumpJavacClass compiles a class, dumps it and checks the listing
// against javap -c: the same instructions at the same offsets.
func TestDumpJavacClass(t *testing.T) {
	out := jvmtest.Compile(t, map[string]string{"d/Sample.java": dumpSample}, "-g")
	file := filepath.Join(out, "d", "Sample.class")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse(file, b)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Dump(&buf, c, DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	listing := buf.String()
	for _, want := range []string{
		"class d/Sample", "source file: Sample.java", "version: ",
		"Constant pool:", "= Long               1234567890123l",
		"BIG J", "ConstantValue: #", "long 1234567890123l",
		"sw(ILjava/lang/String;Ljava/util/List;)I", "flags: 0x0009 public static",
		"tableswitch { // 0 to 3", "lookupswitch { // 3", "     -100000: ", "     default: ",
		"ldc2_w", "double 2.5d", "sipush          300", "wide iinc       3, 1000", "multianewarray  #",
		"newarray        int", "instanceof      #", "checkcast       #", "monitorenter",
		"invokeinterface #", ", 1 // InterfaceMethod java/util/List.size:()I",
		"invokedynamic   #", "InvokeDynamic #0:run:()Ljava/lang/Runnable;",
		`String "hello"`, "Exception table:", "java/lang/IllegalStateException", " any",
		"LineNumberTable:", "LocalVariableTable:", "grid [[I",
		"StackMapTable: ", "locals [int, java/lang/String, java/util/List",
		"Exceptions:", "java/lang/Exception",
		"Class attributes", "BootstrapMethods:", "REF_invokeStatic java/lang/invoke/LambdaMetafactory.metafactory",
		"InnerClasses:", "java/lang/invoke/MethodHandles$Lookup",
	} {
		if !strings.Contains(listing, want) {
			t.Errorf("listing lacks %q", want)
		}
	}
	if strings.Contains(listing, "malformed") {
		t.Errorf("listing reports a malformed part of a javac class")
	}
	if t.Failed() {
		t.Logf("listing:\n%s", listing)
	}

	// Same instructions at the same offsets as javap, method by method.
	jp, err := exec.Command(filepath.Join(jvmtest.JavaHome(t), "bin", "javap"), "-c", "-p", file).CombinedOutput()
	if err != nil {
		t.Fatalf("javap: %v\n%s", err, jp)
	}
	want := insnLines(string(jp), false)
	got := insnLines(listing, true)
	if len(want) < 50 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("instructions differ from javap -c:\n got %q\nwant %q", got, want)
	}
}

// insnLines extracts "offset: mnemonic" lines from a listing; in ours, the
// switch tables' "key: target" lines and the frames are skipped and
// "wide x" is javap's "x_w".
func insnLines(listing string, ours bool) []string {
	var lines []string
	inSwitch := false
	for _, l := range strings.Split(listing, "\n") {
		if ours {
			if strings.Contains(l, "switch {") {
				inSwitch = true
			} else if inSwitch {
				inSwitch = strings.TrimSpace(l) != "}"
				continue
			}
			if !strings.HasPrefix(l, "      ") || strings.HasPrefix(strings.TrimSpace(l), "line ") {
				continue
			}
			l = strings.Replace(l, ": wide ", ": wide_", 1)
		}
		m := javapInsn.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		op := m[2]
		if ours && op == "locals" { // a StackMapTable frame
			continue
		}
		if rest, ok := strings.CutPrefix(op, "wide_"); ok {
			op = rest + "_w"
		}
		lines = append(lines, m[1]+": "+op)
	}
	return lines
}

// TestDumpJDKString dumps java/lang/String from the JDK image.
func TestDumpJDKString(t *testing.T) {
	c := jdkClass(t, "java/lang/String")
	var buf bytes.Buffer
	if err := Dump(&buf, c, DumpOptions{NoPool: true, Method: "hashCode"}); err != nil {
		t.Fatal(err)
	}
	listing := buf.String()
	for _, want := range []string{"class java/lang/String", "interface: #", "java/lang/CharSequence",
		"hashCode()I", "getfield        #", "// Field java/lang/String.hash:I", "ireturn",
		"StackMapTable: "} {
		if !strings.Contains(listing, want) {
			t.Errorf("listing lacks %q:\n%s", want, listing)
		}
	}
	for _, unwanted := range []string{"Constant pool:", "length()I", "Fields ("} {
		if strings.Contains(listing, unwanted) {
			t.Errorf("filtered listing has %q", unwanted)
		}
	}
}

// TestDumpJDKEveryClass: Dump lists every class of every module of the
// local JDK's image without failing or showing a malformed part (not in
// -short mode). It stops at the first failing class.
func TestDumpJDKEveryClass(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: listing every class of the JDK")
	}
	src := jdkSource(t)
	var entries []classpath.ClassEntry
	if err := src.Walk(func(e classpath.ClassEntry) error { entries = append(entries, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(entries) <= 20000 {
		t.Fatalf("only %d classes in the JDK image: is it complete?", len(entries))
	}
	err := parallel.Each(len(entries), 0, func(i int) error {
		e := entries[i]
		b, err := e.Read()
		if err != nil {
			return err
		}
		c, err := classfile.Parse(e.Module+"/"+e.Path, b)
		if err != nil {
			return err
		}
		var listing bytes.Buffer
		dumpCheck(t, &listing, e, c)
		if t.Failed() {
			return errors.New("stopping at the first failing class")
		}
		return nil
	})
	if err != nil && !t.Failed() {
		t.Fatal(err)
	}
}

// dumpCheck is TestDumpJDKEveryClass's listing check: Dump lists class c
// (of entry e) into buf without failing or showing a malformed part.
func dumpCheck(t *testing.T, buf *bytes.Buffer, e classpath.ClassEntry, c *classfile.Class) {
	t.Helper()
	buf.Reset()
	if err := Dump(buf, c, DumpOptions{}); err != nil {
		t.Errorf("%s/%s: %v", e.Module, e.Path, err)
		return
	}
	if i := bytes.Index(buf.Bytes(), []byte(": malformed: ")); i >= 0 {
		end := bytes.IndexByte(buf.Bytes()[i:], '\n')
		t.Errorf("%s/%s: %s", e.Module, e.Path, buf.Bytes()[i:i+end])
	}
}

// TestDumpMalformed: a broken Code attribute and a broken annotation are
// reported in the listing with their bytes; the rest is still listed.
func TestDumpMalformed(t *testing.T) {
	out := jvmtest.Compile(t, map[string]string{"d/Sample.java": dumpSample}, "-g")
	b, err := os.ReadFile(filepath.Join(out, "d", "Sample.class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := classfile.Parse("Sample.class", b)
	if err != nil {
		t.Fatal(err)
	}
	m := c.FindMethod("sw", "(ILjava/lang/String;Ljava/util/List;)I")
	code := c.Attr(m.Attributes, "Code")
	code.Info = append([]byte{}, code.Info...)
	code.Info[8] = 0xFF // the first opcode: invalid
	c.Attributes = append(c.Attributes, classfile.Attribute{Name: c.Pool.AddUtf8("RuntimeVisibleAnnotations"), Info: []byte{0, 1, 0}})
	var buf bytes.Buffer
	if err := Dump(&buf, c, DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	listing := buf.String()
	for _, want := range []string{
		"Code: malformed: d/Sample.sw(ILjava/lang/String;Ljava/util/List;)I Code: offset 8: bytecode offset 0: invalid opcode 0xff",
		"RuntimeVisibleAnnotations: malformed: d/Sample: RuntimeVisibleAnnotations attribute: offset 0: count 1 exceeds the remaining 1 bytes",
		"<init>()V", "BootstrapMethods:",
	} {
		if !strings.Contains(listing, want) {
			t.Errorf("listing lacks %q:\n%s", want, listing)
		}
	}
	if err := Dump(failWriter{}, c, DumpOptions{}); err == nil {
		t.Error("Dump to a failing writer succeeded")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// FuzzDump lists mutated classes: whatever Parse accepts, Dump must list
// without panicking (malformed attributes and code are shown, not fatal).
func FuzzDump(f *testing.F) {
	src := jdkSource(f)
	for _, name := range []string{"java/lang/Object", "java/lang/Integer", "java/lang/Record",
		"java/lang/annotation/Retention", "java/util/Spliterator", "module-info"} {
		b, err := src.Class(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := classfile.Parse("fuzz", b)
		if err != nil {
			return
		}
		if err := Dump(io.Discard, c, DumpOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}
