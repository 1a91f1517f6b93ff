package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// runCheckCmd runs `weft check args...` in process.
func runCheckCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return weftInProcess(append([]string{"check"}, args...)...)
}

const allocWeft = `aspect AllocTracker {
    pointcut allocs(): call(*.new(..)) && !within(example.tracker..*);
    pointcut arrays(): call(*[].new(..)) && !within(example.tracker..*);   // array construction
    before(): execution(* java.util.HashMap.put(..)) { example.tracker.Tracker.onPut(thisJoinPointStaticPart); }
    after() returning(Object o): allocs() { example.tracker.Tracker.onNew(o, thisJoinPointStaticPart); }
    after() returning(Object a): arrays() { example.tracker.Tracker.onArray(a, arrayDims, thisJoinPointStaticPart); }
}
`

func TestCheckSummary(t *testing.T) {
	dir := t.TempDir()
	aspect := filepath.Join(dir, "alloc.weft")
	if err := os.WriteFile(aspect, []byte(allocWeft), 0o644); err != nil {
		t.Fatal(err)
	}
	classes := jvmtest.Compile(t, map[string]string{
		"weft/rt/JoinPointStaticPart.java": `package weft.rt; public interface JoinPointStaticPart { int getId(); }`,
		"example/tracker/Tracker.java": `package example.tracker;
import weft.rt.JoinPointStaticPart;
public class Tracker {
    public static void onPut(JoinPointStaticPart sp) {}
    public static void onNew(Object o, JoinPointStaticPart sp) {}
    public static void onArray(Object a, int[] dims, Object sp) {}
}`})
	out, errOut, err := runCheckCmd(t, aspect, "--advice-cp", classes)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"aspect AllocTracker (" + aspect + ":1)",
		"  pointcut allocs(): call(*.new(..)) && !within(example.tracker..*)",
		"  pointcut arrays(): call(*[].new(..)) && !within(example.tracker..*)",
		"  " + aspect + ":4 before(): execution(* java.util.HashMap.put(..))",
		"      calls example.tracker.Tracker.onPut(Lweft/rt/JoinPointStaticPart;)V  with (thisJoinPointStaticPart)",
		"  " + aspect + ":5 after() returning(Object o): allocs()",
		"      calls example.tracker.Tracker.onNew(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V  with (returned, thisJoinPointStaticPart)",
		"      calls example.tracker.Tracker.onArray(Ljava/lang/Object;[ILjava/lang/Object;)V  with (returned, arrayDims, thisJoinPointStaticPart)",
		"1 aspect, 2 pointcuts, 3 advice; advice methods checked against --advice-cp",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}

	// A method that does not fit is an error naming the advice line and
	// the descriptor found.
	bad := strings.Replace(allocWeft, "onNew(o, thisJoinPointStaticPart)", "onNew(o)", 1)
	if err := os.WriteFile(aspect, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, err = runCheckCmd(t, aspect, "--advice-cp", classes)
	if err == nil || !strings.Contains(errOut, "advice at line 5: no advice method fits: want public static void onNew(java.lang.Object)") ||
		!strings.Contains(errOut, "found onNew(Ljava/lang/Object;Lweft/rt/JoinPointStaticPart;)V (takes 2 parameters, the call passes 1)") {
		t.Errorf("err %v, stderr:\n%s", err, errOut)
	}
}

// Errors of several files are all reported, and check fails.
func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.weft")
	b := filepath.Join(dir, "b.weft")
	os.WriteFile(a, []byte("aspect A {\n    before(): call(Foo.new) { x.Y.z(); }\n}\n"), 0o644)
	os.WriteFile(b, []byte("aspect B {\n    before(Object o): call(* *(..)) { x.Y.z(o); }\n    before(): adviceexecution() { x.Y.z(); }\n}\n"), 0o644)
	out, errOut, err := runCheckCmd(t, a, b)
	if err == nil || err.Error() != "3 errors in "+a+", "+b {
		t.Errorf("err = %v", err)
	}
	if out != "" {
		t.Errorf("summary printed despite errors: %s", out)
	}
	for _, want := range []string{
		a + ":2:27: in call(...)", "hint: a constructor pattern needs a parameter list: write T.new(..)",
		b + ":2:12: formal o is not bound by the pointcut",
		b + ":3:15: adviceexecution() is not supported yet",
		"        before(): adviceexecution() { x.Y.z(); }\n                  ^",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// The shipped examples parse and resolve.
func TestCheckExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*/*.weft")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		out, errOut, err := runCheckCmd(t, f)
		if err != nil || !strings.Contains(out, "advice methods not checked") {
			t.Errorf("%s: %v\n%s%s", f, err, out, errOut)
		}
	}
}
