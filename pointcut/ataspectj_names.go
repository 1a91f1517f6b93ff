package pointcut

import (
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Type names in @AspectJ pointcuts: AspectJ resolves a simple name as Java
// does in the aspect's source, first to a type of the aspect's package,
// then to java.lang's. weft's grammar knows java.lang only, so the
// translation writes the aspect's package before each simple name that
// names a type of it (AtOptions.Exists says which), in the text it then
// hands to the grammar.

// qualified returns a copy of a whose pointcut texts name the types of
// a's package by their qualified names (qualifyNames).
func (w AtOptions) qualified(a *AtAspect) *AtAspect {
	if w.Exists == nil {
		return a
	}
	pkg := ""
	if i := strings.LastIndexByte(a.Class, '/'); i >= 0 {
		pkg = a.Class[:i]
	}
	names := func(ps []AtParam) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	q := *a
	q.Pointcuts = nil
	for _, p := range a.Pointcuts {
		c := *p
		if p.If {
			if rest := p.WithoutIf(); rest != "" {
				c.Expr = w.qualifyNames(rest, pkg, names(p.Params), false) + " && if()"
			}
		} else {
			c.Expr = w.qualifyNames(p.Expr, pkg, names(p.Params), false)
		}
		q.Pointcuts = append(q.Pointcuts, &c)
	}
	q.Advice = nil
	for _, ad := range a.Advice {
		c := *ad
		c.Expr = w.qualifyNames(ad.Expr, pkg, names(ad.Params), false)
		q.Advice = append(q.Advice, &c)
	}
	q.Per.Text = w.qualifyNames(a.Per.Text, pkg, nil, a.Per.Kind == PerTypeWithin)
	q.Precedence = w.qualifyNames(a.Precedence, pkg, nil, true)
	q.Parents = nil
	for _, d := range a.Parents {
		c := *d
		c.Types = w.qualifyNames(d.Types, pkg, nil, true)
		q.Parents = append(q.Parents, &c)
	}
	q.Messages = nil
	for _, m := range a.Messages {
		c := *m
		c.Expr = w.qualifyNames(m.Expr, pkg, nil, false)
		q.Messages = append(q.Messages, &c)
	}
	return &q
}

// qualifyNames returns src, a pointcut or (types) a list of type patterns,
// with pkg (an internal name prefix, "com/acme") before each simple type
// name that names one of pkg's types; formals name values, not types.
// Text that does not parse is returned as it is: the grammar then reports
// it.
func (w AtOptions) qualifyNames(src, pkg string, formals []string, types bool) string {
	if w.Exists == nil || pkg == "" || src == "" {
		return src
	}
	var root any
	if types {
		l, err := parseTypePatternsText("", src)
		if err != nil {
			return src
		}
		root = l
	} else {
		e, err := parseExprText("", src)
		if err != nil {
			return src
		}
		root = e
	}
	var at []int
	walkSimpleTypes(reflect.ValueOf(root), func(st *SimpleType, member bool) {
		rest := st.Rest
		if member && len(rest) == 0 {
			return // a member's name alone
		}
		// A member's name (Type.name) or a constructor's (Type.new)
		// follows the type.
		if n := len(rest); n > 0 && rest[n-1].Sep == "." && (member || rest[n-1].Name == "new") {
			rest = rest[:n-1]
		}
		if len(rest) > 0 || isWild(st.Head) || isKeywordType(st.Head) || slices.Contains(formals, st.Head) {
			return
		}
		if w.Exists(pkg + "/" + st.Head) {
			at = append(at, st.Pos.Offset)
		}
	})
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	prefix := strings.ReplaceAll(pkg, "/", ".") + "."
	for i, off := range at {
		if i > 0 && off == at[i-1] {
			continue
		}
		src = src[:off] + prefix + src[off:]
	}
	return src
}

// walkSimpleTypes calls fn with every SimpleType reachable from v through
// exported fields, pointers and slices: the type names of a parsed
// pointcut or type pattern list; member says that the name's last part
// is a method's or field's name (a signature's Type.name).
func walkSimpleTypes(v reflect.Value, fn func(st *SimpleType, member bool)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		switch n := v.Interface().(type) {
		case *SimpleType:
			fn(n, false)
			return
		case *SigName:
			if n.Simple != nil {
				fn(n.Simple, true)
				return
			}
		}
		walkSimpleTypes(v.Elem(), fn)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkSimpleTypes(v.Index(i), fn)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				walkSimpleTypes(v.Field(i), fn)
			}
		}
	}
}
