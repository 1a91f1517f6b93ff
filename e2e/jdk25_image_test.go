package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

var (
	harsh25Once sync.Once
	harsh25     *wovenJDK
	harsh25Err  string
)

// harshJDK25 weaves every module of JDK 25 with the counting aspect, once,
// and links its runtime image: JDK 25 has no jmods/, so every module's
// jmod is rebuilt from its image.
func harshJDK25(t *testing.T) *wovenJDK {
	t.Helper()
	home := jvmtest.JDK25(t)
	harsh25Once.Do(func() { harsh25, harsh25Err = weaveHarsh(t, home) })
	if harsh25 == nil {
		t.Fatal(harsh25Err)
	}
	return harsh25
}

// TestHarshJDK25Image runs JDK 25 woven whole (every module, the counting
// aspect at every execution, handler and (static) initialization) from its
// runtime image: java -version prints the stock lines ("sharing"
// included); hello world gives the stock output under -Xverify:all and
// counts java.util.HashMap.put; with -Xshare:on the woven java.base
// classes, the runtime and the advice's counter come from the image's
// archive; every class of the boot layer links under -Xverify:all, as
// every class of the stock JDK 25's does (none fails to load or link; the
// woven ones are more, with their sister classes); the image's javac compiles records, a sealed
// interface, a pattern switch and the javac tree into the stock javac's
// class files, with its diagnostics.
func TestHarshJDK25Image(t *testing.T) {
	home := jvmtest.JDK25(t)
	j := harshJDK25(t)
	classes, woven, methods := j.sum.Totals()
	t.Logf("woven %d of %d classes, %d methods, in %.1fs; %d unwoven", woven, classes, methods, j.weaveS, len(j.sum.Unwoven))
	for _, u := range j.sum.Unwoven {
		t.Errorf("unwoven: %s %s: %s", u.Module, u.Class, u.Reason)
	}
	if fi, err := os.Stat(filepath.Join(j.image, "lib", "server", "classes.jsa")); err != nil || fi.Size() == 0 {
		t.Fatalf("the image has no default CDS archive: %v", err)
	}
	stockJava := filepath.Join(home, "bin", "java")
	_, stockErr := runIn(t, stockJava, "-version")
	if _, imageErr := runIn(t, j.bin("java"), "-version"); imageErr != stockErr || !strings.Contains(imageErr, "sharing)") {
		t.Errorf("java -version:\nstock: %s\nimage: %s", stockErr, imageErr)
	}

	app := jvmtest.Compile(t, map[string]string{"Hello.java": helloSrc})
	want, _ := runIn(t, stockJava, "-cp", app, "Hello")
	put := j.ids["java/util/HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"]
	counts := filepath.Join(t.TempDir(), "counts")
	loads := filepath.Join(t.TempDir(), "loads")
	for _, flags := range [][]string{{"-Xverify:all"}, {"-Xshare:on", "-Xlog:class+load:file=" + loads}} {
		got, _ := runIn(t, j.bin("java"), append(append([]string{}, flags...), "-Dweft.counts="+counts, "-cp", app, "Hello")...)
		if got != want {
			t.Errorf("hello on the JDK 25 image %v: %q, want %q", flags, got, want)
		}
		if c := readCounts(t, counts); put == 0 || c[put] < 1 {
			t.Errorf("image %v: java.util.HashMap.put (id %d) counted %d times", flags, put, c[put])
		}
	}
	b, err := os.ReadFile(loads)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"java.lang.Object", "java.util.HashMap", "java.lang.Thread", "weft.rt.BIB", "java.lang.Thread$weft$jp"} {
		if !strings.Contains(string(b), "] "+c+" source: shared objects file\n") {
			t.Errorf("JDK 25 image -Xshare:on: %s not loaded from the archive", c)
		}
	}

	// Every class of the boot layer, as on the stock JDK 25.
	var counts2 [2][3]int
	for i, java := range []string{stockJava, j.bin("java")} {
		out, _ := runIn(t, java, jvmtest.QuickArgs("-Xverify:all", "-cp", j.adv, "Linker")...)
		if _, err := fmt.Sscanf(out, "linked %d other %d bad %d", &counts2[i][0], &counts2[i][1], &counts2[i][2]); err != nil {
			t.Fatalf("linker output %q: %v", out, err)
		}
		if counts2[i][2] != 0 {
			t.Errorf("%s: %d classes fail verification:\n%s", java, counts2[i][2], out)
		}
	}
	t.Logf("linked, other, bad: stock %v, woven %v", counts2[0], counts2[1])
	// The woven image has the sister classes and the runtime besides.
	if counts2[1][1] != counts2[0][1] || counts2[1][0] < counts2[0][0] || counts2[0][0] < 15000 {
		t.Errorf("JDK 25 image linked %v classes (linked, other, bad), the stock JDK 25 %v", counts2[1], counts2[0])
	}

	// javac 25 of the image, on each tree.
	for _, tree := range []map[string]string{javacTree, jdk25Src} {
		_, _, n := sameJavac(t, filepath.Join(home, "bin", "javac"), j, tree)
		if n < 4 {
			t.Errorf("javac 25 wrote %d class files", n)
		}
	}
}
