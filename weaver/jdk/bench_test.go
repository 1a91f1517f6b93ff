package jdk

import (
	"syscall"
	"testing"
	"time"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/classpath"
	"github.com/weft-aop/weft/internal/jvmtest"
	"github.com/weft-aop/weft/weaver"
)

// everyExecution is the harshest aspect: before advice at every method and
// constructor execution, passing the join point id.
type everyExecution struct{ adv *advice.Advice }

func (m everyExecution) Match(s *advice.Shadow, h classfile.Hierarchy) []advice.Applied {
	if s.Kind != advice.MethodExecution && s.Kind != advice.ConstructorExecution {
		return nil
	}
	return []advice.Applied{{Advice: m.adv, Verdict: advice.Always}}
}

// ShadowKinds says only executions can match, as the pointcut of
// examples/count does: the weaver then does not build a shadow for every
// call and field access only to have it rejected.
func (everyExecution) ShadowKinds() advice.KindSet {
	return 1<<advice.MethodExecution | 1<<advice.ConstructorExecution
}

// BenchmarkWeaveAllModules weaves every module of the JDK with the
// harshest aspect and writes the patch tree: the time `weft jdk` spends
// once the aspect is loaded.
func BenchmarkWeaveAllModules(b *testing.B) {
	home := jvmtest.JavaHome(b)
	rt, err := BuildRuntime(home, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	img, err := classpath.OpenJDK(home)
	if err != nil {
		b.Fatal(err)
	}
	defer img.Close()
	adv := &advice.Advice{Kind: advice.Before, Aspect: "Count", File: "count.weft", Line: 2,
		Method: advice.Method{Owner: "count/Counter", Name: "hit", Desc: "(I)V"},
		Args:   []advice.Value{{Kind: advice.JoinPointID, Desc: "I"}}}
	// CPU seconds per weaving: on a machine shared with other jobs the
	// wall time (ns/op) says more about the load than about the weaver.
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op") }()
	for i := 0; i < b.N; i++ {
		x := &Exclusions{}
		w := weaver.New(everyExecution{adv}, nil, weaver.Options{Hierarchy: classpath.NewHierarchy(img),
			Mode: weaver.JDK, Exclude: x.Excluded})
		sum, err := WeaveModules(Options{JavaHome: home, Out: b.TempDir(), Weaver: Aspects{W: w}, Jars: true,
			Exclusions: x, Runtime: rt})
		if err != nil {
			b.Fatal(err)
		}
		classes, woven, methods := sum.Totals()
		b.ReportMetric(float64(classes), "classes")
		b.ReportMetric(float64(woven), "woven")
		b.ReportMetric(float64(methods), "methods")
	}
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
