package jdk

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver"
)

// TestWeaveImageIsReproducible weaves two modules twice on several workers:
// join point ids are numbered in image order whatever the scheduling, so
// the patch jars and the next free id must be the same both times.
func TestWeaveImageIsReproducible(t *testing.T) {
	home := jvmtest.JavaHome(t)
	rt, err := BuildRuntime(home, runtimeCache(t))
	if err != nil {
		t.Fatal(err)
	}
	img, err := classpath.OpenJDK(home)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	adv := &advice.Advice{Kind: advice.Before, Aspect: "Count", File: "count.weft", Line: 2,
		Method: advice.Method{Owner: "count/Counter", Name: "hit", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	var jars [2]map[string][]byte
	var next [2]int32
	for run := range jars {
		x := &Exclusions{}
		w := weaver.New(everyExecution{adv}, []*advice.Advice{adv}, weaver.Options{Hierarchy: classpath.NewHierarchy(img),
			Mode: weaver.JDK, Exclude: x.Excluded, SharedEntries: true})
		out := t.TempDir()
		// Run 0 on 4 workers, run 1 on 3: different interleavings.
		if _, err := WeaveModules(Options{JavaHome: home, Modules: []string{"java.logging", "java.xml"}, Out: out,
			Weaver: Aspects{W: w}, Jars: true, Exclusions: x, Runtime: rt, Workers: 4 - run, NextID: w.NextID}); err != nil {
			t.Fatal(err)
		}
		next[run] = w.NextID()
		jars[run] = map[string][]byte{}
		for _, m := range []string{"java.logging", "java.xml", "java.base"} { // java.base: the runtime and the shared helpers
			b, err := os.ReadFile(filepath.Join(out, "patch", m+".jar"))
			if err != nil {
				t.Fatal(err)
			}
			jars[run][m] = b
		}
	}
	if next[0] != next[1] || next[0] < 1000 {
		t.Errorf("next join point id %d then %d, want the same (and many join points)", next[0], next[1])
	}
	for m, b := range jars[0] {
		if !bytes.Equal(b, jars[1][m]) {
			t.Errorf("%s.jar differs between two weavings", m)
		}
	}
}
