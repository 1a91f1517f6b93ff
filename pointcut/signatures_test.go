package pointcut

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// sigHier is a hierarchy for the signature walk's rules:
//
//	interface p.I { Object m(); Object gen(Object); }
//	class p.A implements I { Object m(); static void s(); void priv() (private in p.P) }
//	class p.B extends A { }                     // declares nothing
//	class p.C extends B { String m(); String gen(String) + bridge gen(Object); static void s(); }
//	class p.P { public void priv(); }  class p.Q extends P { private void priv(); }
func sigHier() *memHier {
	h := testHier()
	h.bridges = map[string][]string{}
	add := func(name, super string, access uint16, ifaces ...string) {
		h.classes[name] = &classfile.ClassInfo{Name: name, Super: super, Interfaces: ifaces, Access: access}
	}
	method := func(owner, name, desc string, access uint16) advice.Member {
		m := advice.Member{Owner: owner, Name: name, Desc: desc, Access: access, AccessKnown: true}
		h.methods[owner+"."+name+desc] = m
		return m
	}
	add("p/I", "java/lang/Object", iface)
	add("p/A", "java/lang/Object", pub, "p/I")
	add("p/B", "p/A", pub)
	add("p/C", "p/B", pub)
	add("p/P", "java/lang/Object", pub)
	add("p/Q", "p/P", pub)
	method("p/I", "m", "()Ljava/lang/Object;", pub|classfile.AccAbstract)
	method("p/I", "gen", "(Ljava/lang/Object;)Ljava/lang/Object;", pub|classfile.AccAbstract)
	method("p/A", "m", "()Ljava/lang/Object;", pub)
	method("p/A", "s", "()V", pub|classfile.AccStatic)
	method("p/C", "m", "()Ljava/lang/String;", pub)
	method("p/C", "gen", "(Ljava/lang/String;)Ljava/lang/String;", pub)
	method("p/C", "gen", "(Ljava/lang/Object;)Ljava/lang/Object;", pub|classfile.AccBridge|classfile.AccSynthetic)
	h.bridges["p/C.gen(Ljava/lang/String;)Ljava/lang/String;"] = []string{"(Ljava/lang/Object;)Ljava/lang/Object;"}
	method("p/C", "s", "()V", pub|classfile.AccStatic)
	method("p/P", "priv", "()V", pub)
	method("p/Q", "priv", "()V", classfile.AccPrivate)
	return h
}

func TestSignatureWalk(t *testing.T) {
	h := sigHier()
	exec := func(owner, name, desc string) advice.Member {
		m, ok := h.methods[owner+"."+name+desc]
		if !ok {
			t.Fatalf("no %s.%s%s", owner, name, desc)
		}
		return m
	}
	cm := exec("p/C", "m", "()Ljava/lang/String;")
	call := advice.Member{Owner: "p/C", Name: "m", Desc: "()Ljava/lang/String;"} // a call: access unknown
	callB := advice.Member{Owner: "p/B", Name: "m", Desc: "()Ljava/lang/Object;"}
	gen := exec("p/C", "gen", "(Ljava/lang/String;)Ljava/lang/String;")
	tests := []struct {
		sig  string
		m    advice.Member
		want bool
	}{
		// Covariant return: C.m() returning String overrides A.m() and
		// I.m() returning Object, whose signatures carry Object.
		{"Object p.A.m()", cm, true},
		{"Object p.I.m()", cm, true},
		{"String p.A.m()", cm, false},
		{"String p.C.m()", cm, true},
		{"Object p.C.m()", cm, false},
		// B declares no m, but lies between C and A: it has A's m.
		{"Object p.B.m()", cm, true},
		// A call: its owner's method resolves the modifiers.
		{"public String p.C.m()", call, true},
		{"public Object p.I.m()", call, true},
		{"abstract * p.I.m()", call, true},
		{"abstract * p.A.m()", call, false},
		// A call on B (inherited from A): B and A have A's signature.
		{"public Object p.B.m()", callB, true},
		{"Object p.A.m()", callB, true},
		{"* p.C.m()", callB, false},
		// Generic parameters: the bridge gen(Object) tells that
		// C.gen(String) implements I.gen(Object): I has the erased
		// signature and the parameterized one.
		{"Object p.I.gen(Object)", gen, true},
		{"String p.I.gen(String)", gen, true},
		{"Object p.I.gen(String)", gen, false},
		// Static methods: no signatures above the declaring type.
		{"* p.A.s()", exec("p/C", "s", "()V"), false},
		{"* p.C.s()", exec("p/C", "s", "()V"), true},
		{"* p.B.s()", advice.Member{Owner: "p/B", Name: "s", Desc: "()V"}, true}, // a call resolving to A.s
		{"* p.A.s()", advice.Member{Owner: "p/B", Name: "s", Desc: "()V"}, true},
		// A private method has the signature of a visible method of the same name above (AspectJ).
		{"public * p.P.priv()", exec("p/Q", "priv", "()V"), true},
		// Unknown owner: its own signature only.
		{"* x.Unknown.m()", advice.Member{Owner: "x/Unknown", Name: "m", Desc: "()V"}, true},
		{"* p.A.m()", advice.Member{Owner: "x/Unknown", Name: "m", Desc: "()Ljava/lang/Object;"}, false},
	}
	for _, tt := range tests {
		s, _ := parseSig(t, tt.sig)
		if got := s.matchMember(&tt.m, false, h); got != tt.want {
			t.Errorf("%s on %s.%s%s: got %v", tt.sig, tt.m.Owner, tt.m.Name, tt.m.Desc, got)
		}
	}
}
