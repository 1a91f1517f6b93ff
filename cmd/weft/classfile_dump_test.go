package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/classfile/javap"
	"github.com/weft-aop/weft/internal/jvmtest"
)

func TestClassfileDumpSpecs(t *testing.T) {
	home := jvmtest.JavaHome(t)
	out := jvmtest.Compile(t, map[string]string{"d/Hello.java": `package d;
public class Hello { public static void main(String[] a) { System.out.println("hi " + a.length); } }`})
	class := filepath.Join(out, "d", "Hello.class")
	b, err := os.ReadFile(class)
	if err != nil {
		t.Fatal(err)
	}
	jar := filepath.Join(t.TempDir(), "app.jar")
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("d/Hello.class")
	w.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jar, zbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		spec string
		want []string
	}{
		{class, []string{"class d/Hello", `String "hi \x01"`, "getstatic", "makeConcatWithConstants"}},
		{jar + "!d/Hello.class", []string{"class d/Hello", "main([Ljava/lang/String;)V"}},
		{jar + "!d/Hello", []string{"class d/Hello"}},
		{out + "!d/Hello", []string{"class d/Hello"}},
		{"jdk:java/lang/String", []string{"class java/lang/String", "hashCode()I", "ireturn", "StackMapTable"}},
		{"jdk:java.util.HashMap", []string{"class java/util/HashMap", "tableSizeFor(I)I"}},
		{"jdk:java.sql/module-info", []string{"module module-info", "Module: java.sql", "exports java/sql"}},
		{"jdk:java/util/logging/Logger", []string{"class java/util/logging/Logger"}}, // module java.logging
	} {
		var buf bytes.Buffer
		if err := dumpClass(&buf, tc.spec, home, javap.DumpOptions{}); err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("dump %s lacks %q", tc.spec, w)
			}
		}
	}

	// Errors say which class is missing and where weft looked.
	for _, tc := range []struct{ spec, want string }{
		{"jdk:java/lang/Nope", "class java/lang/Nope not found in the JDK image " + filepath.Join(home, "lib", "modules")},
		{"jdk:java.base/java/lang/Nope", "class java/lang/Nope not found in module java.base"},
		{jar + "!d/Nope", "class d/Nope not found: " + jar + " has no entry d/Nope.class"},
		{jar + "!", "no class named after the '!'"},
		{filepath.Join(out, "Nope.class"), "Nope.class: no such file"},
		{"missing.jar!a/B", "opening missing.jar"},
	} {
		err := dumpClass(&bytes.Buffer{}, tc.spec, home, javap.DumpOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.spec, err, tc.want)
		}
	}
	err = dumpClass(&bytes.Buffer{}, class, home, javap.DumpOptions{Method: "nope"})
	if err == nil || !strings.Contains(err.Error(), `has no method "nope"`) {
		t.Errorf("--method nope: err = %v", err)
	}
	// A file that is no class file names itself and the offset.
	if err := os.WriteFile(filepath.Join(out, "bad.class"), []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	err = dumpClass(&bytes.Buffer{}, filepath.Join(out, "bad.class"), home, javap.DumpOptions{})
	if err == nil || !strings.Contains(err.Error(), "bad.class: offset 6: truncated") {
		t.Errorf("bad class: err = %v", err)
	}
}

// TestClassfileDumpCommand runs the command as the CLI does.
func TestClassfileDumpCommand(t *testing.T) {
	jvmtest.JavaHome(t)
	s, _, err := weftInProcess("classfile", "dump", "--no-pool", "-m", "hashCode", "jdk:java/lang/String")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, "hashCode()I") || strings.Contains(s, "Constant pool:") || strings.Contains(s, "length()I") {
		t.Errorf("weft classfile dump --no-pool -m hashCode jdk:java/lang/String:\n%s", s)
	}
}
