package jdk

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/runtime-java/rtnames"
)

// TestDefinerCallers: the classes of java.base that call a wrapped native
// are found in the image: on JDK 17, ClassLoader, System$2 (its
// JavaLangAccess, which Proxy and Lookup use) and Unsafe.
func TestDefinerCallers(t *testing.T) {
	img, err := classpath.OpenJDK(jvmtest.JavaHome(t))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	got, err := DefinerCallers(img)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"java/lang/ClassLoader", "java/lang/System$2", "jdk/internal/misc/Unsafe"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("callers of the class-defining natives: %v, want %v", got, want)
	}
}

// TestLTWNamesExist: the members the wrappers call exist in the JDK-mode
// runtime, public and static.
func TestLTWNamesExist(t *testing.T) {
	rt, err := BuildRuntime(jvmtest.JavaHome(t), runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rtnames.LTWRefs() {
		c, err := classfile.Parse(r.Owner, rt[r.Owner])
		if err != nil {
			t.Fatalf("%s: %v", r.Owner, err)
		}
		m := c.FindMethod(r.Name, r.Desc)
		if m == nil || m.Access&(classfile.AccPublic|classfile.AccStatic) != classfile.AccPublic|classfile.AccStatic {
			t.Errorf("%s.%s%s: missing or not public static", r.Owner, r.Name, r.Desc)
		}
	}
}

const definersProgram = `import java.io.*;
import java.lang.invoke.*;
import java.lang.reflect.*;

import java.nio.*;
import java.security.*;
import java.util.function.*;
public class Definers {
    static class Buf extends SecureClassLoader {
        Class<?> define(String name, byte[] b) {
            ByteBuffer d = ByteBuffer.allocateDirect(b.length);
            d.put(b).flip();
            return defineClass(name, d, (CodeSource) null);
        }
    }
    public static void main(String[] a) throws Throwable {
        // Lambdas and string concatenation: hidden classes.
        Supplier<String> s = () -> "lambda";
        System.out.println(s.get() + " " + a.length);
        // A proxy class.
        Runnable r = (Runnable) Proxy.newProxyInstance(Definers.class.getClassLoader(), new Class<?>[]{Runnable.class},
            (p, m, args) -> { System.out.println("proxy " + m.getName()); return null; });
        r.run();
        // A class loader's own class, from bytes and from a direct buffer.
        byte[] b;
        try (InputStream in = Definers.class.getResourceAsStream("Other.class")) { b = in.readAllBytes(); }
        Class<?> c = new Buf().define("Other", b);
        System.out.println(c.getMethod("hi").invoke(null) + " " + (c.getClassLoader() != Definers.class.getClassLoader()));
        // Lookup.defineClass.
        MethodHandles.Lookup l = MethodHandles.lookup();
        System.out.println("lookup " + l.defineClass(b).getMethod("hi").invoke(null));
        // A corrupt class.
        try { new Buf().define("Bad", new byte[]{(byte) 0xca, (byte) 0xfe, 1}); }
        catch (ClassFormatError e) { System.out.println("corrupt " + e.getClass().getSimpleName()); }
    }
}
`

const otherSrc = `public class Other { public static String hi() { return "other"; } }
`

// TestPatchDefinersRuns patches java.base's class definition (no weaving,
// no server: the property weft.ltw unset) and runs a program that defines
// classes every way under -Xverify:all: the output is the stock one.
func TestPatchDefinersRuns(t *testing.T) {
	home := jvmtest.JavaHome(t)
	out := t.TempDir()
	rt, err := BuildRuntime(home, runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WeaveModules(Options{JavaHome: home, Modules: []string{"java.base"}, Out: out,
		Weaver: unchanged{}, Runtime: rt, Jars: true}); err != nil {
		t.Fatal(err)
	}
	app := jvmtest.Compile(t, map[string]string{"Definers.java": definersProgram, "Other.java": otherSrc})
	want, _ := jvmtest.Run(t, "-cp", app, "Definers")
	got, stderr := jvmtest.Run(t, "-Xverify:all", "@"+filepath.Join(out, "weft.args"), "-cp", app, "Definers")
	if got != want || stderr != "" {
		t.Errorf("patched: %q (stderr %q), want %q", got, stderr, want)
	}
	// With the property naming no socket: the channel fails at the first
	// class, which is said once; the program runs on.
	got, stderr = jvmtest.Run(t, "-Xverify:all", "@"+filepath.Join(out, "weft.args"), "-D"+rtnames.LTWProperty+"="+filepath.Join(out, "nothing"), "-cp", app, "Definers")
	if got != want || strings.Count(stderr, "weft: load-time weaving stopped at ") != 1 {
		t.Errorf("no server: %q (stderr %q), want %q", got, stderr, want)
	}
}

// unchanged weaves nothing.
type unchanged struct{}

func (unchanged) WeaveClass(string, []byte) (*Woven, error) { return &Woven{}, nil }
