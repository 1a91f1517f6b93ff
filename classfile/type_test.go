package classfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

func TestParseType(t *testing.T) {
	for _, d := range []string{"I", "Z", "J", "D", "Ljava/lang/String;", "[I", "[[Ljava/util/Map$Entry;",
		"La;", strings.Repeat("[", MaxArrayDims) + "I"} {
		if got, err := ParseType(d); err != nil || string(got) != d {
			t.Errorf("ParseType(%q) = %q, %v", d, got, err)
		}
	}
	for _, tc := range []struct {
		desc   string
		offset int
	}{
		{"", 0}, {"V", 0}, {"[V", 1}, {"Q", 0}, {"II", 1}, {"L;", 1}, {"Ljava/lang/String", 17},
		{"Ljava.lang.String;", 5}, {"L[I;", 1}, {"[", 1}, {"[[", 2}, {"I;", 1},
		{strings.Repeat("[", MaxArrayDims+1) + "I", MaxArrayDims},
	} {
		_, err := ParseType(tc.desc)
		var de *DescriptorError
		if !errors.As(err, &de) || de.Offset != tc.offset || de.Method || de.Desc != tc.desc {
			t.Errorf("ParseType(%q): %v, want an error at offset %d", tc.desc, err, tc.offset)
		}
	}
}

func TestParseMethodDesc(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		params []Type
		ret    Type
		slots  int
	}{
		{"()V", nil, Void, 0},
		{"(IJ)D", []Type{Int, Long}, Double, 3},
		{"([ZZ)[Z", []Type{"[Z", Boolean}, "[Z", 2},
		{"([[ILjava/lang/String;DZ)[Ljava/lang/Object;", []Type{"[[I", "Ljava/lang/String;", Double, Boolean}, "[Ljava/lang/Object;", 5},
	} {
		m, err := ParseMethodDesc(tc.desc)
		if err != nil || strings.Join(typeStrings(m.Params), "") != strings.Join(typeStrings(tc.params), "") || m.Return != tc.ret {
			t.Errorf("ParseMethodDesc(%q) = %q, %v", tc.desc, m, err)
		}
		if n := ArgSlots(tc.desc); n != tc.slots {
			t.Errorf("ArgSlots(%q) = %d, want %d", tc.desc, n, tc.slots)
		}
		if r := ReturnType(tc.desc); r != tc.ret {
			t.Errorf("ReturnType(%q) = %q, want %q", tc.desc, r, tc.ret)
		}
	}
	for _, tc := range []struct {
		desc   string
		offset int
		slots  int // ArgSlots counts the parameters before the malformed one
	}{
		{"", 0, 0}, {"V", 0, 0}, {"I)V", 0, 0}, {"(", 1, 0}, {"(I", 2, 1}, {"(V)V", 1, 0},
		{"(I)", 3, 1}, {"(I)VV", 4, 1}, {"(J)[V", 4, 2}, {"(JQ)V", 2, 2}, {"(Ljava/lang/String)V", 20, 0},
		{"()L;", 3, 0}, {"(D[)V", 3, 2}, {"()[V", 3, 0}, {"(L;)V", 2, 0}, {"()", 2, 0}, {"()X", 2, 0},
		{"([)V", 2, 0}, {"(Z", 2, 1},
	} {
		m, err := ParseMethodDesc(tc.desc)
		var de *DescriptorError
		if !errors.As(err, &de) || de.Offset != tc.offset || !de.Method {
			t.Errorf("ParseMethodDesc(%q) = %q, %v; want an error at offset %d", tc.desc, m, err, tc.offset)
		}
		if r := ReturnType(tc.desc); r != "" {
			t.Errorf("ReturnType(%q) = %q, want none", tc.desc, r)
		}
		if n := ArgSlots(tc.desc); n != tc.slots {
			t.Errorf("ArgSlots(%q) = %d, want %d", tc.desc, n, tc.slots)
		}
	}
}

func typeStrings(ts []Type) []string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return s
}

// TestTypeCode checks what a type implies for code, for every primitive
// type, void and references.
func TestTypeCode(t *testing.T) {
	for _, tc := range []struct {
		t                    Type
		size                 int
		load, store, return_ uint16
		vt                   VType
		java, wrapper        string
		unbox                string
	}{
		{Boolean, 1, OpIload, OpIstore, OpIreturn, VType{Kind: VInteger}, "boolean", "java/lang/Boolean", "booleanValue"},
		{Byte, 1, OpIload, OpIstore, OpIreturn, VType{Kind: VInteger}, "byte", "java/lang/Byte", "byteValue"},
		{Char, 1, OpIload, OpIstore, OpIreturn, VType{Kind: VInteger}, "char", "java/lang/Character", "charValue"},
		{Short, 1, OpIload, OpIstore, OpIreturn, VType{Kind: VInteger}, "short", "java/lang/Short", "shortValue"},
		{Int, 1, OpIload, OpIstore, OpIreturn, VType{Kind: VInteger}, "int", "java/lang/Integer", "intValue"},
		{Float, 1, OpFload, OpFstore, OpFreturn, VType{Kind: VFloat}, "float", "java/lang/Float", "floatValue"},
		{Long, 2, OpLload, OpLstore, OpLreturn, VType{Kind: VLong}, "long", "java/lang/Long", "longValue"},
		{Double, 2, OpDload, OpDstore, OpDreturn, VType{Kind: VDouble}, "double", "java/lang/Double", "doubleValue"},
		{Void, 0, OpAload, OpAstore, OpReturn, VType{Kind: VTop}, "void", "", ""},
		{"Ljava/util/Map$Entry;", 1, OpAload, OpAstore, OpAreturn, VType{Kind: VObject, Class: "java/util/Map$Entry"}, "java.util.Map$Entry", "", ""},
		{"[[J", 1, OpAload, OpAstore, OpAreturn, VType{Kind: VObject, Class: "[[J"}, "long[][]", "", ""},
	} {
		typ := tc.t
		if typ.Size() != tc.size || typ.LoadOp() != tc.load || typ.StoreOp() != tc.store || typ.ReturnOp() != tc.return_ {
			t.Errorf("%s: size %d, load %s, store %s, return %s", typ, typ.Size(), OpNames[typ.LoadOp()], OpNames[typ.StoreOp()], OpNames[typ.ReturnOp()])
		}
		if typ.VType() != tc.vt || typ.JavaName() != tc.java {
			t.Errorf("%s: verification type %+v, Java name %q", typ, typ.VType(), typ.JavaName())
		}
		if kw, ok := KeywordType(tc.java); ok != (len(typ) == 1) || ok && kw != typ {
			t.Errorf("KeywordType(%q) = %q, %v", tc.java, kw, ok)
		}
		if typ.IsPrimitive() != (tc.wrapper != "") {
			t.Errorf("%s: IsPrimitive() = %v", typ, typ.IsPrimitive())
		}
		owner, name, desc := typ.BoxMethod()
		uowner, uname, udesc := typ.UnboxMethod()
		if tc.wrapper == "" {
			if typ.Boxed() != typ || owner+name+desc+uowner+uname+udesc != "" {
				t.Errorf("%s: boxed as %s by %s.%s%s, unboxed by %s.%s%s", typ, typ.Boxed(), owner, name, desc, uowner, uname, udesc)
			}
			continue
		}
		w := ObjectType(tc.wrapper)
		if typ.Boxed() != w || w.Unboxed() != typ ||
			owner != tc.wrapper || name != "valueOf" || desc != "("+string(typ)+")"+string(w) ||
			uowner != tc.wrapper || uname != tc.unbox || udesc != "()"+string(typ) {
			t.Errorf("%s: boxed as %s by %s.%s%s, unboxed by %s.%s%s", typ, typ.Boxed(), owner, name, desc, uowner, uname, udesc)
		}
	}
	if Type("Ljava/lang/String;").Unboxed() != "Ljava/lang/String;" || Type("Ljava/lang/Number;").Unboxed() != "Ljava/lang/Number;" {
		t.Error("a class that wraps no primitive was unboxed")
	}
	if _, ok := KeywordType("String"); ok {
		t.Error("KeywordType(String) found a type")
	}
}

func TestTypeNames(t *testing.T) {
	for _, tc := range []struct {
		t                  Type
		dims               int
		component, element Type
		internal           string
		ref, array         bool
	}{
		{Int, 0, "", Int, "I", false, false},
		{"Ljava/lang/String;", 0, "", "Ljava/lang/String;", "java/lang/String", true, false},
		{"[Ljava/lang/String;", 1, "Ljava/lang/String;", "Ljava/lang/String;", "[Ljava/lang/String;", true, true},
		{"[[I", 2, "[I", Int, "[[I", true, true},
	} {
		typ := tc.t
		if typ.Dims() != tc.dims || typ.Component() != tc.component || typ.Element() != tc.element ||
			typ.InternalName() != tc.internal || typ.IsReference() != tc.ref || typ.IsArray() != tc.array {
			t.Errorf("%s: dims %d, component %q, element %q, internal name %q, reference %v, array %v", typ,
				typ.Dims(), typ.Component(), typ.Element(), typ.InternalName(), typ.IsReference(), typ.IsArray())
		}
		if typ.IsReference() && ObjectType(typ.InternalName()) != typ {
			t.Errorf("ObjectType(%q) = %q, want %q", typ.InternalName(), ObjectType(typ.InternalName()), typ)
		}
	}
	for atype, want := range map[int32]Type{4: Boolean, 5: Char, 6: Float, 7: Double, 8: Byte, 9: Short, 10: Int, 11: Long} {
		if got, ok := NewarrayType(atype); !ok || got != want {
			t.Errorf("NewarrayType(%d) = %q, %v; want %q", atype, got, ok, want)
		}
	}
	for _, atype := range []int32{-1, 0, 3, 12, 1 << 20} {
		if got, ok := NewarrayType(atype); ok {
			t.Errorf("NewarrayType(%d) = %q", atype, got)
		}
	}
}

// TestDescriptorsOfJavaBase parses the descriptor of every member of
// java.base.
func TestDescriptorsOfJavaBase(t *testing.T) {
	src, err := OpenTestJDK(jvmtest.JavaHome(t), "java.base")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := 0
	err = src.Walk(func(e TestEntry) error {
		b, err := e.Read()
		if err != nil {
			return err
		}
		c, err := Parse(e.Path, b)
		if err != nil {
			return err
		}
		for _, f := range c.Fields {
			if _, err := ParseType(c.MemberDesc(f)); err != nil {
				t.Errorf("%s.%s: %v", c.Name(), c.MemberName(f), err)
			}
			n++
		}
		for _, m := range c.Methods {
			desc := c.MemberDesc(m)
			mt, err := ParseMethodDesc(desc)
			if err != nil {
				t.Errorf("%s.%s: %v", c.Name(), c.MemberName(m), err)
				continue
			}
			slots := 0
			for _, p := range mt.Params {
				slots += p.Size()
			}
			if ArgSlots(desc) != slots || ReturnType(desc) != mt.Return {
				t.Errorf("%s.%s%s: ArgSlots %d, ReturnType %q", c.Name(), c.MemberName(m), desc, ArgSlots(desc), ReturnType(desc))
			}
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50000 {
		t.Fatalf("only %d members in java.base", n)
	}
}

// FuzzDescriptor feeds arbitrary strings to the descriptor parsers. None
// may panic; errors are *DescriptorError with an offset inside the input;
// what they accept is consistent across them and with the Type methods.
func FuzzDescriptor(f *testing.F) {
	for _, d := range []string{"I", "V", "[[D", "Ljava/lang/String;", "(IJ)V", "([Ljava/lang/Object;Z)[[I",
		"(Ljava/util/Map$Entry;)Ljava/lang/Integer;", "(", "L;", "(V)V", "[", "Ljava.lang.Object;"} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		checkErr := func(err error, method bool) {
			var de *DescriptorError
			if !errors.As(err, &de) || de.Desc != desc || de.Method != method || de.Offset < 0 || de.Offset > len(desc) {
				t.Fatalf("%q: error %v (%T) is no *DescriptorError inside the input", desc, err, err)
			}
		}
		typ, err := ParseType(desc)
		if err != nil {
			checkErr(err, false)
		} else {
			checkType(t, typ)
		}
		// Type methods take any string without panicking.
		junk := Type(desc)
		_, _, _, _ = junk.Size(), junk.JavaName(), junk.VType(), junk.Element()
		_, _, _, _ = junk.LoadOp(), junk.ReturnOp(), junk.Boxed(), junk.Unboxed()
		_, _, _ = junk.Component(), junk.InternalName(), junk.IsPrimitive()

		m, err := ParseMethodDesc(desc)
		if err != nil {
			checkErr(err, true)
			if ReturnType(desc) != "" {
				t.Fatalf("%q: ReturnType of a malformed descriptor is %q", desc, ReturnType(desc))
			}
			ArgSlots(desc)
			return
		}
		rebuilt, slots := "(", 0
		for _, p := range m.Params {
			if _, err := ParseType(string(p)); err != nil {
				t.Fatalf("%q: parameter %q: %v", desc, p, err)
			}
			rebuilt += string(p)
			slots += p.Size()
		}
		if rebuilt += ")" + string(m.Return); rebuilt != desc {
			t.Fatalf("%q parsed as %q", desc, rebuilt)
		}
		if ArgSlots(desc) != slots || ReturnType(desc) != m.Return {
			t.Fatalf("%q: ArgSlots %d, ReturnType %q; parsed %d slots, %q", desc, ArgSlots(desc), ReturnType(desc), slots, m.Return)
		}
		if m.Return != Void {
			checkType(t, m.Return)
		}
	})
}

// checkType checks the methods of a valid field type against each other.
func checkType(t *testing.T, typ Type) {
	t.Helper()
	switch {
	case typ.IsPrimitive():
		if typ.Boxed().Unboxed() != typ || typ.VType().Kind == VObject {
			t.Fatalf("%s: boxed %s, verification type %+v", typ, typ.Boxed(), typ.VType())
		}
	case typ.IsReference():
		if ObjectType(typ.InternalName()) != typ || typ.VType() != (VType{Kind: VObject, Class: typ.InternalName()}) {
			t.Fatalf("%s: internal name %q, verification type %+v", typ, typ.InternalName(), typ.VType())
		}
	default:
		t.Fatalf("%s is neither primitive nor a reference", typ)
	}
	if typ.IsArray() {
		c, err := ParseType(string(typ.Component()))
		if err != nil || c.Dims() != typ.Dims()-1 || c.Element() != typ.Element() {
			t.Fatalf("%s: component %q (%v)", typ, c, err)
		}
	}
	if typ.JavaName() == "" || typ.Size() < 1 {
		t.Fatalf("%s: Java name %q, size %d", typ, typ.JavaName(), typ.Size())
	}
}
