package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// sizesSrc is the advice of TestJDKFieldAccess: it logs the sizes set in,
// and read from, one watched ArrayList.
const sizesSrc = `package fieldjdk;
import java.util.ArrayList;
public final class Sizes {
    public static ArrayList<?> watched;
    public static boolean watchGets;
    public static final StringBuilder SETS = new StringBuilder(), GETS = new StringBuilder();
    public static long hits;
    public static void hit() { hits++; }
    public static void set(int n, ArrayList<?> l) { if (l == watched) SETS.append(' ').append(n); }
    public static void got(ArrayList<?> l, int n) { if (watchGets && l == watched) GETS.append(' ').append(n); }
}
`

const sizesWeft = `aspect Sizes {
    before(int n, java.util.ArrayList l): set(int java.util.ArrayList.size) && args(n) && target(l) {
        fieldjdk.Sizes.set(n, l);
    }
    after(java.util.ArrayList l) returning(int n): get(private int java.util.ArrayList.size) && target(l) {
        fieldjdk.Sizes.got(l, n);
    }
    before(): get(* *) || set(* *) {
        fieldjdk.Sizes.hit();
    }
}
`

const sizesMain = `import java.util.ArrayList;
import fieldjdk.Sizes;
public class Main {
    public static void main(String[] args) {
        ArrayList<String> l = new ArrayList<>();
        Sizes.watched = l;
        l.add("a");
        l.add("b");
        Sizes.watchGets = true;
        int n = l.size();
        Sizes.watchGets = false;
        l.remove(0);
        l.clear();
        System.out.println("size " + n + "; sets" + Sizes.SETS + "; gets" + Sizes.GETS + "; many hits " + (Sizes.hits > 1000));
    }
}
`

// TestJDKFieldAccess weaves java.base with get and set advice on
// ArrayList.size (a private field of a class every program uses from
// bootstrap on) and on every other field access, and runs a program on
// the woven JDK under -Xverify:all: the advice sees each new size (args)
// of the watched list (target) and the value size() read (after
// returning), and counts the rest.
func TestJDKFieldAccess(t *testing.T) {
	adv := jvmtest.Compile(t, map[string]string{"fieldjdk/Sizes.java": sizesSrc})
	aspect := writeFile(t, "sizes.weft", sizesWeft)
	dir := filepath.Join(t.TempDir(), "jdk")
	_, stderr, code := weft(t, []string{newCache(t)}, "jdk", "-q", "-a", aspect, "--advice-cp", adv,
		"--modules", "java.base", "-o", dir)
	if code != 0 || stderr != "" {
		t.Fatalf("weft jdk: exit %d\n%s", code, stderr)
	}
	app := jvmtest.Compile(t, map[string]string{"Main.java": sizesMain}, "-cp", adv)
	out, errOut := jvmtest.Run(t, "-Xverify:all", "@"+filepath.Join(dir, "weft.args"), "-cp", app, "Main")
	if want := "size 2; sets 1 2 1 0; gets 2; many hits true\n"; out != want {
		t.Errorf("on the woven JDK the program printed %q (stderr %q), want %q", out, errOut, want)
	}
	if strings.Contains(errOut, "VerifyError") {
		t.Errorf("woven JDK does not verify: %s", errOut)
	}
}
