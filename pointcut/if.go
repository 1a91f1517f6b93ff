package pointcut

import (
	"fmt"
	"strings"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/classfile"
)

// if(pkg.Class.method(formals)) matches when the public static boolean
// method returns true for the values the formals are bound to at the join
// point: an If residue the woven code evaluates before the advice (with
// the thread's advice bypass set, as for advice). if(true) and if(false)
// are constants.

// ifNode is a compiled if(...).
type ifNode struct {
	method advice.Method
	// formals are the formal each argument passes, -1 for a context
	// value, whose kind is then in contexts.
	formals  []int
	contexts []advice.ValueKind
	params   []string // the method's parameter descriptors
}

// ifContexts are the context values an if() may pass: those the helper
// has before the join point runs.
var ifContexts = map[advice.ValueKind]bool{
	advice.JoinPointStaticPart: true,
	advice.EnclosingStaticPart: true,
	advice.JoinPointID:         true,
	advice.JoinPoint:           true,
}

// ifFix is an If residue whose arguments are read from the binds once the
// whole pointcut is evaluated (a formal may be bound after the if()).
type ifFix struct {
	r *advice.Residue
	n *ifNode
}

func (n *ifNode) eval(m *matchCtx) result {
	r := &advice.Residue{Op: advice.If, Method: n.method, Args: make([]advice.Value, len(n.formals))}
	m.ifs = append(m.ifs, ifFix{r, n})
	return result{advice.Maybe, r}
}

// fixIfs fills in the arguments of the If residues made since m.ifs was
// last emptied.
func (m *matchCtx) fixIfs() {
	for _, f := range m.ifs {
		for i, formal := range f.n.formals {
			var v advice.Value
			if formal < 0 {
				v = advice.Value{Kind: f.n.contexts[i]}
			} else {
				v = m.binds[formal]
			}
			v.Desc = f.n.params[i]
			f.r.Args[i] = v
		}
	}
	m.ifs = m.ifs[:0]
}

// ifPointcut compiles if(...).
func (c *compiler) ifPointcut(d *Designator, ev *env) node {
	call := d.If
	if !call.Paren {
		if len(call.Name) == 1 && (call.Name[0] == "true" || call.Name[0] == "false") {
			if call.Name[0] == "true" {
				return constNode{advice.Always}
			}
			return constNode{advice.Never}
		}
		c.errorf(call.Pos, "write if(pkg.Class.method(formals)), or if(true) / if(false)",
			"if() takes a call of a static boolean method")
		return constNode{advice.Never}
	}
	if ev.inCflow {
		c.errorf(d.Pos, "move the if() out of the cflow(...): cflow(P) && if(...)",
			"if() inside cflow() or cflowbelow() is not supported: its entry and exit would have to agree")
		return constNode{advice.Never}
	}
	if len(call.Name) < 2 {
		c.errorf(call.Pos, "write pkg.Class.method(...)", "if() must call a static method of a class")
		return constNode{advice.Never}
	}
	n := &ifNode{}
	var values []string
	for _, a := range call.Args {
		t, ok := ev.names[a.Name]
		kind, context := contextValues[a.Name]
		switch {
		case ok && t.formal >= 0 && t.formal == len(ev.formals)-1 && ev.formals[t.formal] != "":
			c.errorf(a.Pos, "if() is tested before the join point runs", "if() cannot pass the returning or throwing formal %s", a.Name)
		case ok && t.formal >= 0:
			n.formals = append(n.formals, t.formal)
			n.contexts = append(n.contexts, 0)
			values = append(values, t.types[len(t.types)-1])
			continue
		case context && ifContexts[kind] && !ok:
			n.formals = append(n.formals, -1)
			n.contexts = append(n.contexts, kind)
			values = append(values, contextDesc[kind])
			continue
		case context:
			c.errorf(a.Pos, "pass formals bound by this(), target(), args() or cflow(), thisJoinPoint, thisJoinPointStaticPart, thisEnclosingJoinPointStaticPart or joinPointId",
				"if() cannot pass %s", a.Name)
		default:
			var names []string
			for _, f := range ev.formals {
				if f != "" {
					names = append(names, f)
				}
			}
			hint := "if() passes formals of the pointcut"
			if len(names) > 0 {
				hint += ": " + strings.Join(names, ", ")
			}
			c.errorf(a.Pos, hint, "unknown name %s in if()", a.Name)
		}
		return constNode{advice.Never}
	}
	owner, err := typeNameDesc(call.Name[:len(call.Name)-1], 0)
	if cls := call.Name[0]; len(call.Name) == 2 && err != nil && !isWild(cls) && !isKeywordType(cls) {
		owner, err = "L"+cls+";", nil
	}
	if err != nil || !strings.HasPrefix(owner, "L") {
		c.errorf(call.Pos, "write the class's fully qualified name, e.g. com.example.Filter.accept(...)",
			"if() class %s: not a class name", strings.Join(call.Name[:len(call.Name)-1], "."))
		return constNode{advice.Never}
	}
	name := call.Name[len(call.Name)-1]
	ownerName := classfile.Type(owner).InternalName()
	n.method = advice.Method{Owner: ownerName, Name: name, Desc: "(" + strings.Join(values, "") + ")Z"}
	n.params = values
	if c.ifHier != nil {
		m, params, ok := c.bindIfMethod(call, ownerName, name, values)
		if !ok {
			return constNode{advice.Never}
		}
		n.method, n.params = m, params
	}
	return n
}

// bindIfMethod finds the public static boolean method if() calls whose
// parameters take the values passed.
func (c *compiler) bindIfMethod(call *IfCall, owner, name string, values []string) (advice.Method, []string, bool) {
	cl, owner, err := c.classes.nested(owner)
	if err != nil {
		c.errorf(call.Pos, "put the compiled class on --advice-cp", "if(): %v", err)
		return advice.Method{}, nil, false
	}
	var found []string
	for _, m := range cl.Methods {
		if cl.MemberName(m) != name {
			continue
		}
		desc := cl.MemberDesc(m)
		mt, err := classfile.ParseMethodDesc(desc)
		var why []string
		params := make([]string, len(mt.Params))
		for i, p := range mt.Params {
			params[i] = string(p)
		}
		switch {
		case err != nil:
			why = append(why, "bad descriptor")
		case len(params) != len(values):
			why = append(why, fmt.Sprintf("takes %d parameters, if() passes %d", len(params), len(values)))
		default:
			for i, v := range values {
				if ok, sure := passable(v, params[i], c.ifHier); !ok && sure {
					why = append(why, fmt.Sprintf("parameter %d is %s, cannot take %s", i+1, mt.Params[i].JavaName(), classfile.Type(v).JavaName()))
				}
			}
		}
		if err == nil && mt.Return != classfile.Boolean {
			why = append(why, "returns "+mt.Return.JavaName()+", not boolean")
		}
		why = append(why, notCallable(cl, m, owner)...)
		if len(why) == 0 {
			return advice.Method{Owner: owner, Name: name, Desc: desc}, params, true
		}
		found = append(found, desc+" ("+strings.Join(why, ", ")+")")
	}
	hint := fitHint(name, owner, found)
	c.errorf(call.Pos, hint, "if(): no method fits: want public static boolean %s(%s) in %s",
		name, javaNames(values), strings.ReplaceAll(owner, "/", "."))
	return advice.Method{}, nil, false
}
