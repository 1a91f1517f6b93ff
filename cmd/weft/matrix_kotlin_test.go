package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

const kotlinLib = "/usr/share/kotlin/kotlinc/lib/"

// kotlinc is Kotlin's compiler as its launcher script starts it, heap
// bound included.
func kotlinc(src, out string) []string {
	return []string{"-Xmx256M", "-Xms32M", "-Dkotlin.home=/usr/share/kotlin/kotlinc", "-cp", kotlinLib + "kotlin-preloader.jar",
		"org.jetbrains.kotlin.preloading.Preloader", "-cp", kotlinLib + "kotlin-compiler.jar",
		"org.jetbrains.kotlin.cli.jvm.K2JVMCompiler", src, "-d", out}
}

// kotlin compiles a Kotlin program (testdata/matrix/kotlin/sq.kt) with
// kotlinc, whose preloader defines the compiler's classes in a loader of
// its own, then runs it: stock, and under weft serve (which weaves the
// classes kotlinc runs as they are defined; weaving its 40 MB compiler
// jar ahead is TestWeaveJarAlone's kind of work). The class file kotlinc
// writes is the stock run's byte for byte; the program prints 285, its
// probeSq counted 10 times.
func (m *matrix) kotlin(t *testing.T) {
	needFiles(t, "kotlin", kotlinLib+"kotlin-preloader.jar", kotlinLib+"kotlin-compiler.jar", debJava+"kotlin-stdlib.jar")
	src, err := filepath.Abs(filepath.Join(matrixDir, "kotlin", "sq.kt"))
	if err != nil {
		t.Fatal(err)
	}
	var wantClass []byte
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		out := t.TempDir()
		o := m.run(t, mode, "", kotlinc(src, out)...)
		class, err := os.ReadFile(filepath.Join(out, "SqKt.class"))
		if o.code != 0 || err != nil {
			t.Fatalf("kotlinc: exit %d, %v; stderr:\n%s", o.code, err, tail(o.stderr))
		}
		p := m.run(t, mode, "", "-cp", out+":"+debJava+"kotlin-stdlib.jar", "SqKt")
		if p.code != 0 || p.stdout != "285\n" {
			t.Fatalf("SqKt: exit %d, stdout %q, want 285; stderr:\n%s", p.code, p.stdout, tail(p.stderr))
		}
		if mode == stockMode {
			wantClass = class
			return
		}
		if !bytes.Equal(class, wantClass) {
			t.Errorf("kotlinc wrote another SqKt.class than on the stock JDK (%d bytes, stock %d)", len(class), len(wantClass))
		}
		checkWoven(t, mode, "kotlinc", o, nil)
		checkWoven(t, mode, "kotlin program", p, map[string]int{"SqKt.probeSq(int)": 10})
	})
}
