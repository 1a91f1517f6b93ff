package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// saxonJar is Saxon-HE 9.9 (Debian's libsaxonhe-java).
const saxonJar = debJava + "Saxon-HE.jar"

// saxon transforms a small XML document (testdata/matrix/saxon/sales.xml)
// with an XSLT 3 stylesheet (report.xsl: xsl:for-each-group, xsl:sort, an
// xsl:function and format-number) through Saxon-HE's command line, stock
// and under weft serve (which weaves Saxon's classes as the JVM loads
// them). Saxon-HE has no reflexive extension functions: -init:SqExt
// registers an integrated one, sq:probeSq, which the stylesheet calls 10
// times (SqExt.probeSq, the probe, counted exactly). The file Saxon writes
// is the stock run's byte for byte (nothing in it varies) and has the
// squares' sum, 285.
func (m *matrix) saxon(t *testing.T) {
	needFiles(t, "libsaxonhe-java", saxonJar)
	dir, err := filepath.Abs(filepath.Join(matrixDir, "saxon"))
	if err != nil {
		t.Fatal(err)
	}
	ext := jvmtest.Compile(t, matrixSources(t, "saxon", "SqExt.java"), "-cp", saxonJar)
	var want []byte
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		out := filepath.Join(t.TempDir(), "report.xml")
		o := m.run(t, mode, t.TempDir(), "-cp", saxonJar+":"+ext, "net.sf.saxon.Transform", "-init:SqExt",
			"-s:"+filepath.Join(dir, "sales.xml"), "-xsl:"+filepath.Join(dir, "report.xsl"), "-o:"+out)
		got, err := os.ReadFile(out)
		if o.code != 0 || err != nil {
			t.Fatalf("saxon: exit %d, %v; stderr:\n%s", o.code, err, tail(o.stderr))
		}
		if mode == stockMode {
			want = got
			if !bytes.Contains(got, []byte(`<squares sum="285"/>`)) || !bytes.Contains(got, []byte(`<grand-total>572.55</grand-total>`)) {
				t.Fatalf("saxon wrote:\n%s", got)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Errorf("saxon wrote another report than on the stock JDK:\n%s\nstock:\n%s", got, want)
		}
		checkWoven(t, mode, "saxon", o, map[string]int{"SqExt.probeSq(int)": 10})
	})
}

// fopJars are FOP's class path as Debian's fop launcher (/usr/bin/fop)
// builds it where Xalan is installed (libxalan2-java, with Xerces: the
// launcher adds them where they are, fop's dependencies do not).
var fopJars = []string{debJava + "commons-io.jar", debJava + "serializer.jar", debJava + "xalan2.jar", debJava + "xml-apis.jar",
	debJava + "batik-all.jar", debJava + "commons-logging.jar", debJava + "xercesImpl.jar", debJava + "xmlgraphics-commons.jar",
	debJava + "xml-apis-ext.jar", debJava + "fontbox2.jar", "/usr/share/fop/fop-hyph.jar", debJava + "fop.jar"}

// pdfVaries is what varies from run to run in a PDF FOP writes: the
// creation date (the info dictionary's, the XMP metadata's) and the file's
// ID, a digest of it. Each has a fixed length: their digits (pdfDigits)
// become as many zeros, which keeps the cross-reference table's offsets.
var (
	pdfVaries = regexp.MustCompile(`D:\d{14}Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|/ID \[<[0-9A-F]+> <[0-9A-F]+>\]`)
	pdfDigits = regexp.MustCompile(`[0-9A-F]{2,}`)
)

// fop renders a small XSL-FO document (testdata/matrix/fop/doc.fo: a
// title, a table, a list) to PDF with FOP's command line, as Debian's
// launcher runs it (headless, commons-logging's SimpleLog), stock and under
// weft serve (which weaves FOP's, Batik's and XML Graphics' classes as the
// JVM loads them). The PDF is the stock run's byte for byte once its
// creation dates and ID (pdfVaries) are normalized. No probe: FOP calls no
// function of the test's.
func (m *matrix) fop(t *testing.T) {
	needFiles(t, "fop and libxalan2-java", fopJars...)
	fo, err := filepath.Abs(filepath.Join(matrixDir, "fop", "doc.fo"))
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		out := filepath.Join(t.TempDir(), "doc.pdf")
		o := m.run(t, mode, t.TempDir(), "-Djava.awt.headless=true",
			"-Dorg.apache.commons.logging.Log=org.apache.commons.logging.impl.SimpleLog",
			"-cp", strings.Join(fopJars, ":"), "org.apache.fop.cli.Main", "-fo", fo, "-pdf", out)
		pdf, err := os.ReadFile(out)
		if o.code != 0 || err != nil {
			t.Fatalf("fop: exit %d, %v; stderr:\n%s", o.code, err, tail(o.stderr))
		}
		pdf = pdfVaries.ReplaceAllFunc(pdf, func(b []byte) []byte {
			return pdfDigits.ReplaceAllFunc(b, func(d []byte) []byte { return bytes.Repeat([]byte("0"), len(d)) })
		})
		if mode == stockMode {
			want = pdf
			if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf, []byte("/Type /Page")) {
				t.Fatalf("fop wrote no PDF page (%d bytes)", len(pdf))
			}
			return
		}
		if !bytes.Equal(pdf, want) {
			t.Errorf("fop wrote another PDF than on the stock JDK (%d bytes, stock %d)", len(pdf), len(want))
		}
		checkWoven(t, mode, "fop", o, nil)
	})
}

// luceneJars are Lucene 8's core, common analyzers and query parser
// (Debian's liblucene8-java has versioned names only).
func luceneJars(t *testing.T) []string {
	t.Helper()
	var jars []string
	for _, name := range []string{"lucene-core", "lucene-analyzers-common", "lucene-queryparser"} {
		m, _ := filepath.Glob(debJava + name + "-8.*.jar")
		if len(m) != 1 {
			t.Fatalf("%s%s-8.*.jar: %d files; install Debian's liblucene8-java (bash .ci/run does)", debJava, name, len(m))
		}
		jars = append(jars, m[0])
	}
	return jars
}

// lucene runs a small program (testdata/matrix/lucene/Idx.java) that
// indexes 200 generated documents in memory (ByteBuffersDirectory,
// StandardAnalyzer) and runs term, phrase, boolean, wildcard and field
// queries through Lucene's classic QueryParser: stock and under weft serve
// (which weaves Lucene's classes as the JVM loads them). Its output (each
// query's hit count and top documents' ids, the squares' sum 285) is the
// stock run's; nothing in it varies (one segment, merged by no other
// thread). Its probeSq is counted 10 times.
func (m *matrix) lucene(t *testing.T) {
	jars := luceneJars(t)
	cp := strings.Join(jars, ":")
	prog := jvmtest.Compile(t, matrixSources(t, "lucene", "Idx.java"), "-cp", cp)
	var want string
	m.modes(t, []matrixMode{serveMode}, func(t *testing.T, mode matrixMode) {
		o := m.run(t, mode, "", "-cp", cp+":"+prog, "Idx")
		if mode == stockMode {
			want = o.stdout
			if o.code != 0 || !strings.HasPrefix(want, "squares: 285\ndocuments: 200\n") || !strings.Contains(want, " hits, doc") {
				t.Fatalf("Idx: exit %d, stdout %q; stderr:\n%s", o.code, o.stdout, tail(o.stderr))
			}
			return
		}
		if o.code != 0 || o.stdout != want {
			t.Errorf("Idx: exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		checkWoven(t, mode, "lucene", o, map[string]int{"Idx.probeSq(int)": 10})
	})
}
