package jdk

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile/jimage"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// TestParseFileList: a module's file list maps each kind to its jmod
// section (legal notices lose the image's legal/MODULE/ level, a link is
// a file like the others); a line of another shape, an unknown kind, a
// path outside the JDK or outside its section is an error naming the line.
func TestParseFileList(t *testing.T) {
	list := "1|0|ab12|conf/security/java.security\n" +
		"2|0|ab12|include/linux/jni_md.h\n" +
		"3|1|legal/java.base/LICENSE|legal/jdk.compiler/LICENSE\n" +
		"4|0|ab12|man/man1/javac.1\n" +
		"5|0|ab12|bin/javac\n" +
		"6|0|ab12|lib/server/libjvm.so\n"
	got, err := parseFileList("jdk.compiler", []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	want := []listedFile{
		{"conf/security/java.security", "conf/security/java.security"},
		{"include/linux/jni_md.h", "include/linux/jni_md.h"},
		{"legal/LICENSE", "legal/jdk.compiler/LICENSE"},
		{"man/man1/javac.1", "man/man1/javac.1"},
		{"bin/javac", "bin/javac"},
		{"lib/server/libjvm.so", "lib/server/libjvm.so"},
	}
	if len(got) != len(want) {
		t.Fatalf("parsed %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	for _, c := range []struct{ line, err string }{
		{"6|0|lib/libjava.so", "3 fields, want 4"},
		{"0|0|h|java/lang/Object.class", `kind "0" has no jmod section`},
		{"7|0|h|release", `kind "7" has no jmod section`},
		{"6|0|h|../../etc/passwd", "is not inside the JDK"},
		{"6|0|h|/etc/passwd", "is not inside the JDK"},
		{"6|0|h|lib/../bin/java", "is not inside the JDK"},
		{"5|0|h|lib/libjava.so", "is not under bin/"},
		{"3|0|h|legal/java.base/LICENSE", "is not under legal/jdk.compiler/"},
		{"6|0|h|lib/", "is not inside the JDK"},
	} {
		_, err := parseFileList("jdk.compiler", []byte("1|0|h|conf/a\n"+c.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), "fs_jdk.compiler_files:2: ") || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: error %v, want line 2: ...%s", c.line, err, c.err)
		}
	}
}

// FuzzParseFileList: any list parses or fails without a panic, and every
// file parsed stays inside the JDK, in a section of the jmod.
func FuzzParseFileList(f *testing.F) {
	f.Add([]byte("3|1|legal/java.base/LICENSE|legal/jdk.compiler/LICENSE\n6|0|ab|lib/libjava.so\n"))
	f.Add([]byte("5|0|x|bin/java\n\n2|0|y|include/jni.h"))
	f.Fuzz(func(t *testing.T, b []byte) {
		files, err := parseFileList("m", b)
		if err != nil {
			return
		}
		for _, lf := range files {
			if !filepath.IsLocal(lf.homePath) || !filepath.IsLocal(lf.jmodName) {
				t.Errorf("%+v: outside the JDK or the jmod", lf)
			}
			if strings.HasPrefix(lf.jmodName, classesSection) {
				t.Errorf("%+v: in the classes section", lf)
			}
		}
	})
}

// TestRebuiltJmodJDK25: JDK 25 has no jmods/ but lists its modules' files
// in its image; a module's jmod rebuilt from the image and those files
// hashes as the image's java.base records (so jlink takes it), and JDK
// 25's jmod tool lists its classes and its native library, launcher,
// legal notices and man page from the JDK's directories.
func TestRebuiltJmodJDK25(t *testing.T) {
	home := jvmtest.JDK25(t)
	if HasJmods(home) || !HasModuleFileLists(home) || !CanLinkImage(home) {
		t.Fatalf("%s: jmods %v, module file lists %v: not the JDK 25 without jmods this test is for",
			home, HasJmods(home), HasModuleFileLists(home))
	}
	img, err := jimage.Open(filepath.Join(home, "lib", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	ents := map[string][]jimage.Entry{}
	if err := img.Walk(func(e jimage.Entry) error {
		ents[e.Module] = append(ents[e.Module], e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	base, err := openImageModule(home, img, "java.base", ents["java.base"])
	if err != nil {
		t.Fatal(err)
	}
	info, err := base.read(classesSection + "module-info.class")
	if err != nil {
		t.Fatal(err)
	}
	mi, err := parseModuleInfo("java.base", info)
	if err != nil {
		t.Fatal(err)
	}
	hashed, err := mi.hashed()
	if err != nil {
		t.Fatal(err)
	}
	const tied = "jdk.compiler" // classes, a launcher, a library file, legal notices, man pages
	off, ok := hashed[tied]
	if !ok {
		t.Fatalf("java.base records the hashes of %d modules, %s not among them", len(hashed), tied)
	}
	recorded := mi.c.Attr(mi.c.Attributes, "ModuleHashes").Info[off : off+32]

	m, err := openImageModule(home, img, tied, ents[tied])
	if err != nil {
		t.Fatal(err)
	}
	out, names := rewriteJmod(t, m, tied, recorded)
	list, err := exec.Command(filepath.Join(home, "bin", "jmod"), "list", out).CombinedOutput()
	if err != nil {
		t.Fatalf("jmod list %s: %v\n%s", out, err, list)
	}
	got := strings.Fields(string(list))
	sort.Strings(got)
	for _, w := range []string{"classes/module-info.class", "classes/com/sun/tools/javac/Main.class",
		"bin/javac", "lib/ct.sym", "legal/LICENSE", "man/man1/javac.1"} {
		if i := sort.SearchStrings(got, w); i == len(got) || got[i] != w {
			t.Errorf("jmod list of the rebuilt %s lacks %s", tied, w)
		}
	}
	if len(got) != len(names)+len(m.files) {
		t.Errorf("jmod list: %d entries, want %d classes and resources and %d files", len(got), len(names), len(m.files))
	}
}
