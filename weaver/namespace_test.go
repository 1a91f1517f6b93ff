package weaver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/pointcut"
)

// namespaceSources: a program whose packages are named like weft's tools
// (leak, profile), a tool's class in weft's namespace, and the advice.
var namespaceSources = map[string]string{
	"leak/Cache.java":           "package leak;\npublic class Cache { public static void put() {} }\n",
	"profile/Main.java":         "package profile;\npublic class Main { public static void main(String[] a) { leak.Cache.put(); } }\n",
	"weft/tools/t/Tool.java":    "package weft.tools.t;\npublic class Tool { public static void hit(int id) {} public static void run() {} }\n",
	"weft/tools/t/cal/Cal.java": "package weft.tools.t.cal;\npublic class Cal { public static void loop() {} }\n",
}

const namespaceAspect = `aspect Everything {
    before(): execution(* *(..)) {
        weft.tools.t.Tool.hit(joinPointId);
    }
}
`

// TestOwnNamespace: weft never weaves its own namespace (weft/: the
// runtime and the tools' advice), so an aspect with no !within for its
// advice leaves the advice alone, and a program's packages named like the
// tools (leak, profile) are woven as any other; Options.WeaveOwn weaves
// the classes of its prefix only, never the runtime's.
func TestOwnNamespace(t *testing.T) {
	dir, _, infos := compileAndWeave(t, namespaceSources, "ns.weft", namespaceAspect, "")
	got := strings.Join(infos, "\n")
	for _, want := range []string{"method-execution(void leak.Cache.put())", "method-execution(void profile.Main.main(java.lang.String[]))"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s among the shadows woven:\n%s", want, got)
		}
	}
	if strings.Contains(got, "weft.") {
		t.Errorf("a class of weft's namespace woven:\n%s", got)
	}

	f, err := pointcut.ParseFile("ns.weft", []byte(namespaceAspect))
	if err != nil {
		t.Fatal(err)
	}
	h := mustJDKHierarchy(t, dir)
	prog, err := pointcut.ResolveWith([]*pointcut.File{f}, pointcut.Options{AdviceCP: dir, Hierarchy: h})
	if err != nil {
		t.Fatal(err)
	}
	for _, own := range []string{"", "weft/tools/t/cal/", "weft/rt/"} {
		w := New(prog, prog.Advice(), Options{Hierarchy: h, WeaveOwn: own})
		for class, woven := range map[string]bool{
			"weft/tools/t/cal/Cal": own == "weft/tools/t/cal/",
			"weft/tools/t/Tool":    false,
			"weft/rt/Weft":         false,
			"leak/Cache":           true,
		} {
			p := filepath.Join(dir, filepath.FromSlash(class)+".class")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := w.WeaveClass(p, data)
			if err != nil {
				t.Fatal(err)
			}
			if (res.Class != nil) != woven {
				t.Errorf("WeaveOwn %q: %s woven %v, want %v", own, class, res.Class != nil, woven)
			}
		}
	}
}
