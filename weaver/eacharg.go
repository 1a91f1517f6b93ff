package weaver

import (
	"slices"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// Advice passing eachArg is called once per argument of the join point, in
// order, inside one bypass: a recorder of arguments takes them one by one
// into arrays of its own, with no array or box made per call as
// thisJoinPoint's getArgs() makes. The advice method's overloads
// (advice.Advice.Overloads) take the types it wants unboxed; the helper
// calls, for each argument, the one Java would pick for a call with that
// argument alone among those taking its type or a primitive it widens to,
// else the advice's own method, whose parameter is Object (boxing).

// eachArgCalls emits the advice calls of an eachArg helper, one per
// argument, and returns the stack slots they take at most.
func (hg *helperGen) eachArgCalls() int {
	a := hg.h.adv
	at := slices.IndexFunc(a.Args, func(v advice.Value) bool { return v.Kind == advice.EachArg })
	stack := 0
	for k := 0; k < hg.h.eachArgs; k++ {
		hg.each = k
		t := classfile.Type(hg.param(advice.Arg, k).desc)
		stack = max(stack, hg.call(overloadFor(a, at, t)))
	}
	return stack
}

// widening lists, for each primitive type, the types it widens to, the
// nearest first (JLS 5.1.2): the most specific overload is the first one
// present.
var widening = map[classfile.Type][]classfile.Type{
	classfile.Byte:  {classfile.Short, classfile.Int, classfile.Long, classfile.Float, classfile.Double},
	classfile.Short: {classfile.Int, classfile.Long, classfile.Float, classfile.Double},
	classfile.Char:  {classfile.Int, classfile.Long, classfile.Float, classfile.Double},
	classfile.Int:   {classfile.Long, classfile.Float, classfile.Double},
	classfile.Long:  {classfile.Float, classfile.Double},
	classfile.Float: {classfile.Double},
}

// overloadFor returns the method of advice a that takes an argument of
// type t at parameter at: the overload taking t itself, else the nearest
// primitive t widens to, else a's method (Object: boxed, or the reference
// as it is).
func overloadFor(a *advice.Advice, at int, t classfile.Type) advice.Method {
	param := func(m advice.Method) classfile.Type {
		mt, err := classfile.ParseMethodDesc(m.Desc)
		if err != nil || at >= len(mt.Params) {
			return ""
		}
		return mt.Params[at]
	}
	for _, want := range append([]classfile.Type{t}, widening[t]...) {
		for _, o := range a.Overloads {
			if param(o) == want {
				return o
			}
		}
	}
	return a.Method
}
