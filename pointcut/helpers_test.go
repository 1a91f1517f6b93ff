package pointcut

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// memHier is an in-memory class hierarchy with declared methods.
type memHier struct {
	classes map[string]*classfile.ClassInfo
	methods map[string]advice.Member // class.name+desc
	bridges map[string][]string      // class.name+desc → the descriptors of its bridges
}

func (h *memHier) Lookup(name string) (*classfile.ClassInfo, error) {
	if ci, ok := h.classes[name]; ok {
		return ci, nil
	}
	return nil, fmt.Errorf("%s: %w", name, classfile.ErrClassNotFound)
}

func (h *memHier) DeclaredMethods(class, name string) ([]advice.Member, bool) {
	if _, ok := h.classes[class]; !ok {
		return nil, false
	}
	var out []advice.Member
	for k, m := range h.methods {
		if strings.HasPrefix(k, class+"."+name+"(") {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Desc < out[j].Desc })
	return out, true
}

func (h *memHier) Bridges(class, name, desc string) []string { return h.bridges[class+"."+name+desc] }

// plainHier hides DeclaredMethods: a Hierarchy that knows no methods.
type plainHier struct{ h *memHier }

func (p plainHier) Lookup(name string) (*classfile.ClassInfo, error) { return p.h.Lookup(name) }

const (
	pub   = classfile.AccPublic
	iface = classfile.AccInterface | classfile.AccAbstract | classfile.AccPublic
)

// testHier is a small slice of the JDK plus an application.
func testHier() *memHier {
	h := &memHier{classes: map[string]*classfile.ClassInfo{}, methods: map[string]advice.Member{}}
	add := func(name, super string, access uint16, ifaces ...string) {
		h.classes[name] = &classfile.ClassInfo{Name: name, Super: super, Interfaces: ifaces, Access: access}
	}
	add("java/lang/Object", "", pub)
	add("java/io/Serializable", "java/lang/Object", iface)
	add("java/lang/Cloneable", "java/lang/Object", iface)
	add("java/lang/Comparable", "java/lang/Object", iface)
	add("java/lang/CharSequence", "java/lang/Object", iface)
	add("java/lang/String", "java/lang/Object", pub|classfile.AccFinal, "java/io/Serializable", "java/lang/Comparable", "java/lang/CharSequence")
	add("java/lang/Number", "java/lang/Object", pub|classfile.AccAbstract, "java/io/Serializable")
	add("java/lang/Integer", "java/lang/Number", pub|classfile.AccFinal, "java/lang/Comparable")
	add("java/lang/Throwable", "java/lang/Object", pub, "java/io/Serializable")
	add("java/lang/Exception", "java/lang/Throwable", pub)
	add("java/lang/RuntimeException", "java/lang/Exception", pub)
	add("java/io/IOException", "java/lang/Exception", pub)
	add("java/io/FileNotFoundException", "java/io/IOException", pub)
	add("java/util/Map", "java/lang/Object", iface)
	add("java/util/Map$Entry", "java/lang/Object", iface)
	add("java/util/AbstractMap", "java/lang/Object", pub|classfile.AccAbstract, "java/util/Map")
	add("java/util/HashMap", "java/util/AbstractMap", pub, "java/util/Map", "java/lang/Cloneable", "java/io/Serializable")
	add("java/util/LinkedHashMap", "java/util/HashMap", pub, "java/util/Map")
	add("java/util/HashSet", "java/lang/Object", pub)
	add("java/util/concurrent/ConcurrentHashMap", "java/util/AbstractMap", pub, "java/util/Map")
	add("java/util/List", "java/lang/Object", iface)
	add("java/util/ArrayList", "java/lang/Object", pub, "java/util/List")
	add("app/Main", "java/lang/Object", pub)
	add("app/Main$Inner", "java/lang/Object", 0)
	add("app/Sub", "app/Main", pub)
	add("app/IO", "java/lang/Object", pub)
	put := "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
	for _, c := range []string{"java/util/Map", "java/util/AbstractMap", "java/util/HashMap"} {
		acc := uint16(pub)
		if c == "java/util/Map" {
			acc |= classfile.AccAbstract
		}
		h.methods[c+".put"+put] = advice.Member{Owner: c, Name: "put", Desc: put, Access: acc, AccessKnown: true}
	}
	h.methods["java/lang/Object.toString()Ljava/lang/String;"] = advice.Member{Owner: "java/lang/Object", Name: "toString",
		Desc: "()Ljava/lang/String;", Access: pub, AccessKnown: true}
	return h
}

// parseTypePattern compiles a type pattern written as text.
func compileTypeText(t *testing.T, text string) (typePat, *compiler) {
	t.Helper()
	c := testCompiler(text + ")")
	toks := scan("p", []byte(text+")"))
	b, err := typeParser().ParseFromLexer(peeking(toks, endOf("p", []byte(text+")"))))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return c.typePattern(b.P, false), c
}

// parseSig compiles a signature pattern written as text.
func parseSig(t *testing.T, text string) (*sigPat, *compiler) {
	t.Helper()
	src := []byte(text + ")")
	c := testCompiler(string(src))
	toks := scan("p", src)
	b, err := methodParser().ParseFromLexer(peeking(toks, endOf("p", src)))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	sig := c.signature(b.P, text)
	if sig == nil {
		t.Fatalf("%q: %v", text, c.errs)
	}
	return sig, c
}

func testCompiler(src string) *compiler {
	return &compiler{srcs: map[string][]byte{"p": []byte(src)}, seen: map[string]bool{}, classes: newClasses("", nil, "")}
}

// mustParse parses and resolves source, failing the test on errors.
func mustResolve(t *testing.T, src string) *Program {
	t.Helper()
	f, err := ParseFile("t.weft", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Resolve([]*File{f}, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// resolveErr parses and resolves source, returning the error text.
func resolveErr(src string) string {
	f, err := ParseFile("t.weft", []byte(src))
	if err != nil {
		return err.Error()
	}
	_, err = Resolve([]*File{f}, "")
	if err == nil {
		return ""
	}
	return err.Error()
}

func contains(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// endOf is the position after the last byte of src.
func endOf(filename string, src []byte) Position {
	s := newScanner(filename, src)
	for t, _ := s.Next(); !t.EOF(); t, _ = s.Next() {
	}
	return s.pos
}
