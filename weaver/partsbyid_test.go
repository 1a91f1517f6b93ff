package weaver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

const partsByIDAdvice = `package adv;
import weft.rt.Parts;
public class I {
    static final java.util.List<Integer> IDS = new java.util.ArrayList<>();
    public static void id(int id) { IDS.add(id); }
    public static void part(weft.rt.JoinPointStaticPart jp) {}
    public static Object around(int id, weft.rt.Proceed p) throws Throwable { IDS.add(id); return p.proceed(); }
    public static void report() {
        for (int id : IDS) System.out.println(id + " " + Parts.of(id));
        System.out.println("none " + Parts.of(-1) + " " + Parts.of(Integer.MAX_VALUE));
    }
}
`

const partsByIDMain = `package app;
public class Main {
    static class A { int f(int x) { return x + 1; } A() {} }
    static class C { String run() { return "c"; } }
    static class B { BMETHODS }
    static int g(int x) { return new A().f(x); }
    public static void main(String[] args) {
        System.out.println(g(1) + new C().run());
        B.BNAME0(); B.BNAME1(); B.BNAME2();
        adv.I.report();
    }
}
`

// bMethods are the methods of partsByIDMain's class B: so many, of names
// so long, that its static parts' lines fill several string constants;
// main calls its first, a middle and its last.
func bMethods() (methods string, called [3]string) {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		name := fmt.Sprintf("m%03d_%s", i, strings.Repeat("x", 60))
		fmt.Fprintf(&b, "static void %s() {} ", name)
		switch i {
		case 0:
			called[0] = name
		case 199:
			called[1] = name
		case 399:
			called[2] = name
		}
	}
	return b.String(), called
}

// TestPartsByID weaves advice passed only joinPointId, in classes whose
// sisters hold around closures (C) or also serve other advice (Main), one
// of whose join points (A.f) is also passed thisJoinPointStaticPart (so
// the sister has a method loading its static part; the others are lines
// of a string), or whose lines fill several strings (B), and finds each
// id's static part with
// weft.rt.Parts.of, as a tool does at its report's end: every id names its
// own join point, and ids weft never gave name none.
func TestPartsByID(t *testing.T) {
	t.Parallel() // see jdkOnce
	aspect := `aspect I {
    before(): execution(* app.Main.g(..)) || execution(* app.Main$A.*(..)) || execution(app.Main$A.new(..)) { adv.I.id(joinPointId); }
    Object around(): execution(* app.Main$C.run()) { adv.I.around(joinPointId, proceed); }
    after(): execution(* app.Main$A.f(..)) { adv.I.part(thisJoinPointStaticPart); }
    before(): execution(static * app.Main$B.*(..)) { adv.I.id(joinPointId); }
}`
	methods, called := bMethods()
	main := strings.NewReplacer("BMETHODS", methods, "BNAME0", called[0], "BNAME1", called[1], "BNAME2", called[2]).Replace(partsByIDMain)
	out, _ := weaveAspect(t, map[string]string{"adv/I.java": partsByIDAdvice, "app/Main.java": main}, aspect, "app.Main")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"2c",
		"method-execution(int app.Main.g(int))",
		"constructor-execution(void app.Main$A.<init>())",
		"method-execution(int app.Main$A.f(int))",
		"method-execution(java.lang.String app.Main$C.run())",
		"method-execution(void app.Main$B." + called[0] + "())",
		"method-execution(void app.Main$B." + called[1] + "())",
		"method-execution(void app.Main$B." + called[2] + "())",
		"none null null"}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s\nwant %d lines", out, len(want))
	}
	ids := map[string]bool{}
	for i, l := range lines {
		if i == 0 || i == len(lines)-1 {
			if l != want[i] {
				t.Errorf("line %d: %q, want %q", i+1, l, want[i])
			}
			continue
		}
		id, part, _ := strings.Cut(l, " ")
		if part != want[i] {
			t.Errorf("id %s: Parts.of gives %q, want %q", id, part, want[i])
		}
		if ids[id] {
			t.Errorf("id %s given twice:\n%s", id, out)
		}
		ids[id] = true
	}
}

const decodeCheck = `import weft.rt.JoinPointStaticPart;
import weft.rt.Parts;
public class Decode {
    public static void main(String[] args) throws Exception {
        java.util.List<String> texts = new java.util.ArrayList<>();
        for (String a : args) texts.add(new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(a)), "UTF-8"));
        int found = 0, wrong = 0;
        for (int rel = -1; rel <= 4001; rel++) {
            JoinPointStaticPart p = null;
            for (String t : texts) if (p == null) p = Parts.decode(1000 + rel, rel, t);
            boolean want = rel >= 0 && rel < 4000 && rel % 2 == 0;
            if (p == null ? want : !want || !p.getName().equals("m" + rel) || p.getId() != 1000 + rel || p.getLine() != rel + 1) wrong++;
            if (p != null) found++;
        }
        System.out.println(found + " found, " + wrong + " wrong");
    }
}
`

// TestPartLines checks that a class's lines of static parts are split into
// constants the class file can hold, every part in one of them, and that
// Parts.decode finds each by its relative id (binary search) and no other.
func TestPartLines(t *testing.T) {
	t.Parallel() // see jdkOnce
	parts := map[int32]*jpInfo{}
	for id := int32(0); id < 4000; id += 2 {
		parts[id] = &jpInfo{id: id, kind: "method-execution", declType: "app.Main", name: fmt.Sprintf("m%d", id),
			sig: fmt.Sprintf("void app.Main.m%d(java.lang.String, java.util.List)", id), within: "app.Main", file: "Main.java", line: int(id) + 1}
	}
	texts, lasts := partLines(parts)
	if len(lasts) != len(texts) {
		t.Fatalf("%d constants, %d last ids", len(texts), len(lasts))
	}
	for i, s := range texts {
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, fmt.Sprintf("%d\t", lasts[i])) {
			t.Errorf("constant %d ends with %.20q..., its last id given as %d", i, last, lasts[i])
		}
	}
	if len(texts) < 2 {
		t.Fatalf("%d constants for 2,000 parts of ~100 bytes each", len(texts))
	}
	lines := 0
	for _, s := range texts {
		if len(s) > partLinesMax {
			t.Errorf("a constant of %d bytes (at most %d)", len(s), partLinesMax)
		}
		lines += strings.Count(s, "\n")
	}
	if lines != len(parts) {
		t.Errorf("%d lines for %d parts", lines, len(parts))
	}
	if lineSafe(&jpInfo{name: "a\tb"}) {
		t.Error("a name with a tab is safe in a line")
	}
	src := runtimeSources()
	src["Decode.java"] = decodeCheck
	cp := jvmtest.Compile(t, src)
	args := []string{"-cp", cp, "Decode"}
	for i, text := range texts {
		f := filepath.Join(t.TempDir(), fmt.Sprint(i))
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	if out, _ := jvmtest.Run(t, args...); out != "2000 found, 0 wrong\n" {
		t.Errorf("Parts.decode over the lines: %q, want 2000 found, 0 wrong", out)
	}
}

// idsCheck prints, for each id of its arguments, the row Parts.idsRow finds
// for it in the table of a woven image's ids (lib/weft/ids) it reads from
// standard input.
const idsCheck = `package weft.rt;
public class IdsCheck {
    public static void main(String[] args) throws Exception {
        byte[] table = System.in.readAllBytes();
        for (String a : args) {
            String[] row = Parts.idsRow(table, Integer.parseInt(a));
            System.out.println(a + " " + (row == null ? "none" : row[0] + " " + row[1]));
        }
    }
}
`

// TestIDsTable checks that Parts finds a class's sister in a woven
// image's table of first ids by binary search: the last line whose first
// id is at most the id, names in UTF-8; none before the first line, or in
// a table that is not one.
func TestIDsTable(t *testing.T) {
	t.Parallel() // see jdkOnce
	src := runtimeSources()
	src["weft/rt/IdsCheck.java"] = idsCheck
	cp := jvmtest.Compile(t, src)
	var table strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&table, "%d java.base java.util.C%d$weft$jp\n", 10*i, i)
	}
	fmt.Fprintf(&table, "%d app \u00dcn\u00ef$weft$jp\n", 1<<30)
	ids := []string{"-1", "0", "9", "10", "15", "29990", "29999", "1073741823", "1073741824", "2000000000"}
	cmd := exec.Command(jvmtest.Java(t), "-cp", cp, "weft.rt.IdsCheck")
	cmd.Args = append(cmd.Args, ids...)
	cmd.Stdin = strings.NewReader(table.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "-1 none\n0 java.base java.util.C0$weft$jp\n9 java.base java.util.C0$weft$jp\n10 java.base java.util.C1$weft$jp\n" +
		"15 java.base java.util.C1$weft$jp\n29990 java.base java.util.C2999$weft$jp\n29999 java.base java.util.C2999$weft$jp\n" +
		"1073741823 java.base java.util.C2999$weft$jp\n1073741824 app \u00dcn\u00ef$weft$jp\n2000000000 app \u00dcn\u00ef$weft$jp\n"
	if string(out) != want {
		t.Errorf("rows found:\n%s\nwant:\n%s", out, want)
	}
	for _, bad := range []string{"", "x java.base C\n", "5 java.base\n"} {
		cmd := exec.Command(jvmtest.Java(t), "-cp", cp, "weft.rt.IdsCheck", "7")
		cmd.Stdin = strings.NewReader(bad)
		if out, err := cmd.CombinedOutput(); err != nil || string(out) != "7 none\n" {
			t.Errorf("table %q: %q (%v), want 7 none", bad, out, err)
		}
	}
}
