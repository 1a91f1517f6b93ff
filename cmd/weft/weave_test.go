package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

// TestWeaveCommand runs `weft runtime` and `weft weave --weave-info` on a
// class directory with the counting example, then the woven program,
// verified, on the JVM.
func TestWeaveCommand(t *testing.T) {
	tmp := t.TempDir()
	rtJar := filepath.Join(tmp, "weft-rt.jar")
	rootCmd.SetArgs([]string{"runtime", "-o", rtJar})
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(rtJar)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "weft/rt/") {
			n++
		}
	}
	zr.Close()
	if n < 4 {
		t.Fatalf("runtime jar has %d weft/rt classes", n)
	}

	src := map[string]string{}
	for k, v := range rtjava.Sources() {
		src[k] = string(v)
	}
	counter, err := os.ReadFile("../../examples/count/Counter.java")
	if err != nil {
		t.Fatal(err)
	}
	src["count/Counter.java"] = string(counter)
	adv := jvmtest.Compile(t, src)
	app := jvmtest.Compile(t, map[string]string{"demo/Fib.java": `package demo;
public class Fib {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static void main(String[] a) { System.out.println("fib " + fib(10)); }
}`}, "-g")
	os.WriteFile(filepath.Join(app, "demo", "notes.txt"), []byte("kept"), 0o644)
	out := filepath.Join(tmp, "out")
	var stdout bytes.Buffer
	rootCmd.SetOut(&stdout)
	rootCmd.SetArgs([]string{"weave", "-q", "-a", "../../examples/count/count.weft", "--advice-cp", adv,
		"-o", out, "--weave-info", app})
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := `Join point 'constructor-execution(void demo.Fib.<init>())' in Type 'demo.Fib' (Fib.java:2) advised by before advice from 'Count' (count.weft:3)
Join point 'method-execution(int demo.Fib.fib(int))' in Type 'demo.Fib' (Fib.java:3) advised by before advice from 'Count' (count.weft:3)
Join point 'method-execution(void demo.Fib.main(java.lang.String[]))' in Type 'demo.Fib' (Fib.java:4) advised by before advice from 'Count' (count.weft:3)
`
	if stdout.String() != want {
		t.Errorf("weave info:\n%s\nwant:\n%s", stdout.String(), want)
	}
	if b, err := os.ReadFile(filepath.Join(out, "demo", "notes.txt")); err != nil || string(b) != "kept" {
		t.Errorf("resource not copied: %q %v", b, err)
	}
	o, e := jvmtest.Run(t, "-Xverify:all", "-cp", out+string(filepath.ListSeparator)+adv, "demo.Fib")
	if o != "fib 55\n" || !strings.Contains(e, "count: 178 hits at 2 join points") {
		t.Errorf("woven run: stdout %q stderr %q", o, e)
	}
}
