package classfile_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classfile/javap"
)

// Tests of this package that need the listing of package javap, which
// imports classfile: they build their classes with this package's test
// helpers (export_test.go).

// TestDumpForms: the listing names the form each instruction is written
// in, as javap does.
func TestDumpForms(t *testing.T) {
	c, err := classfile.Parse("java/lang/Object", classfile.FormsClass(t))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := javap.Dump(&out, c, javap.DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`0: aload +0$`, `3: wide iload +5$`, `8: wide iinc +1, 1$`, `14: ldc_w +#\d+ // integer 123456$`,
		`18: wide aload +0$`, `22: astore +3$`, `24: goto_w +29$`, `30: tableswitch`, `49: jsr_w +54$`,
		`62: wide ret +4$`,
	} {
		if !regexp.MustCompile(`(?m)^ +` + line).Match(out.Bytes()) {
			t.Errorf("the listing has no line %q:\n%s", line, out.Bytes())
		}
	}
}
