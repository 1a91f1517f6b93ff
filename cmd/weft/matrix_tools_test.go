package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/launch/jvmopts"
)

// TestToolsSmallHeap runs weft's tools on real programs that bound their
// heap for themselves: weft leak and weft profile --no-time on a Jackson
// program with -Xmx48m, and weft profile --no-time on kotlinc, whose
// launcher passes -Xmx256M. The tools' data lives in the heap, and both
// ran out of it (kotlinc after two minutes, stock 3 s) until the tools
// added their share (--tool-heap) to the bound: now each prints what the
// stock run prints, kotlinc's class file is the stock one byte for byte,
// and each tool writes its report.
func TestToolsSmallHeap(t *testing.T) {
	jackson := []string{debJava + "jackson-databind.jar", debJava + "jackson-core.jar", debJava + "jackson-annotations.jar"}
	needFiles(t, "libjackson2-databind-java", jackson...)
	cp := strings.Join(jackson, ":")
	app := jvmtest.Compile(t, matrixSources(t, "jackson", "Books.java"), "-cp", cp)
	books := []string{"java", "-Xmx48m", "-cp", app + ":" + cp, "Books"}
	want, _ := jvmtest.Run(t, books[1:]...)
	if want != "25000 books, 7467500 pages, 1917080 bytes, 285\n" {
		t.Fatalf("stock: %q", want)
	}
	for _, tool := range [][]string{
		{"leak", "--patches", "--modules", "java.base"},
		{"profile", "--patches", "--modules", "java.base", "--no-time"},
	} {
		t.Run(tool[0], func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			stdout, stderr, code := weft(t, []string{sharedCache(t)}, append(append(tool, "-o", out, "--"), books...)...)
			if code != 0 || stdout != want || strings.Contains(stderr, jvmopts.OutOfMemory) {
				t.Fatalf("exit %d, stdout %q, want %q\nstderr:\n%s", code, stdout, want, tail(stderr))
			}
		})
	}

	t.Run("kotlinc", func(t *testing.T) {
		needFiles(t, "kotlin", kotlinLib+"kotlin-preloader.jar", kotlinLib+"kotlin-compiler.jar")
		kt, err := filepath.Abs(filepath.Join(matrixDir, "kotlin", "sq.kt"))
		if err != nil {
			t.Fatal(err)
		}
		stock := t.TempDir()
		jvmtest.Run(t, kotlinc(kt, stock)...)
		wantClass, err := os.ReadFile(filepath.Join(stock, "SqKt.class"))
		if err != nil {
			t.Fatal(err)
		}
		classes, prof := t.TempDir(), filepath.Join(t.TempDir(), "prof")
		_, stderr, code := weft(t, []string{sharedCache(t)}, append([]string{"profile", "--patches", "--modules", "java.base", "--no-time",
			"-v", "-o", prof, "--", "java"}, kotlinc(kt, classes)...)...)
		class, _ := os.ReadFile(filepath.Join(classes, "SqKt.class"))
		if code != 0 || !bytes.Equal(class, wantClass) || !fileExists(filepath.Join(prof, "profile.cct")) {
			t.Fatalf("exit %d, SqKt.class %d bytes (stock %d), profile written %v\nstderr:\n%s", code, len(class), len(wantClass),
				fileExists(filepath.Join(prof, "profile.cct")), tail(stderr))
		}
		if !strings.Contains(stderr, "heap bound -Xmx256M raised to -Xmx1280m for the tool") {
			t.Errorf("weft profile -v does not say the heap bound was raised:\n%s", tail(stderr))
		}
	})
}
