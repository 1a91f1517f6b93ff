package classfile

// SelfContained reports whether m's code can run no code but its own:
// none of its instructions calls a method (invoke*, invokedynamic),
// allocates (new, arrays), resolves a class other than m's own (casts,
// instanceof, class and method-handle constants, fields of other classes,
// catch types) or can start a class's initialization (static fields not
// declared by m's own class, which is initialized whenever m runs).
// Locals, the stack, arithmetic, branches, switches, returns, array
// elements and lengths, monitors, athrow and constants that resolve
// nothing (numbers, strings) are all it may do. The only code such a
// method can run besides its own is the constructor of an exception the
// JVM throws for it (a null reference, an index out of bounds, a division
// by zero), which allocates nothing the JVM does not. False for a method
// without code, with jsr/ret, or with malformed code. It reads the Code
// attribute's bytes without decoding them.
func SelfContained(c *Class, m *Member) bool {
	a := c.Attr(m.Attributes, "Code")
	if a == nil || len(a.Info) < 8 {
		return false
	}
	n := int(u16(a.Info[4:]))<<16 | int(u16(a.Info[6:]))
	if n == 0 || n > len(a.Info)-10 {
		return false
	}
	bc := a.Info[8 : 8+n]
	handlers := a.Info[8+n:]
	nh := int(u16(handlers))
	if 2+8*nh > len(handlers) {
		return false
	}
	for i := 0; i < nh; i++ {
		if u16(handlers[2+8*i+6:]) != 0 {
			return false // a catch type is resolved when an exception is thrown
		}
	}
	self := c.Pool.ClassName(c.This)
	for pc := 0; pc < len(bc); {
		size := rawInsnSize(bc, pc)
		if size == 0 || pc+size > len(bc) {
			return false
		}
		if !selfContainedInsn(c, self, bc[pc:pc+size]) {
			return false
		}
		pc += size
	}
	return true
}

// selfContainedInsn reports whether instruction in (its bytes) runs and
// resolves nothing but the class self's own.
func selfContainedInsn(c *Class, self string, in []byte) bool {
	switch op := in[0]; {
	case op == OpLdc:
		return plainConstant(c, uint16(in[1]))
	case op == OpLdcW || op == OpLdc2W:
		return plainConstant(c, u16(in[1:]))
	case op == OpJsr || op == OpRet:
		return false
	case op < OpLdc || op > OpLdc2W && op <= OpReturn:
		// constants, locals, array elements, the stack, arithmetic,
		// conversions, comparisons, branches, switches, returns
		return true
	case op == OpGetfield || op == OpPutfield:
		owner, _, _ := c.Pool.MemberRef(u16(in[1:]))
		return owner == self
	case op == OpGetstatic || op == OpPutstatic:
		// The field's declaring class is initialized: it must be self,
		// which is initialized (or being so by this thread) while m runs.
		owner, name, desc := c.Pool.MemberRef(u16(in[1:]))
		return owner == self && c.declaresField(name, desc)
	case op == OpArraylength, op == OpAthrow, op == OpMonitorenter, op == OpMonitorexit,
		op == OpIfnull, op == OpIfnonnull, op == OpGotoW, op == OpWide:
		return true
	}
	return false // invoke*, new, arrays, casts, instanceof, breakpoints
}

// plainConstant reports whether pool entry i is a constant ldc pushes
// without resolving anything: a number or a string.
func plainConstant(c *Class, i uint16) bool {
	switch c.Pool.Tag(i) {
	case TagInteger, TagFloat, TagLong, TagDouble, TagString:
		return true
	}
	return false
}

// declaresField reports whether c itself declares the field name desc.
func (c *Class) declaresField(name, desc string) bool {
	for _, f := range c.Fields {
		if c.Pool.Utf8(f.Name) == name && c.Pool.Utf8(f.Desc) == desc {
			return true
		}
	}
	return false
}
