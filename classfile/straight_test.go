package classfile

import "testing"

// TestStraightMode runs the straight mode over small methods, each built
// to take one of its paths: where it answers, its frames, max stack and
// max locals are the whole analysis's; where it gives up, the analysis
// runs and answers.
func TestStraightMode(t *testing.T) {
	type labels struct{ l0, l1, l2, l3 *Label }
	tests := []struct {
		name   string
		access uint16
		method string
		desc   string
		insns  func(p *Pool, l labels) []Insn
		want   bool // the straight mode answers
		hand   []Handler
	}{
		{"null joins a class", AccStatic, "f", "(Ljava/lang/String;)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpAload, 0), jmp(OpIfnull, l.l1),
				op(OpAconstNull), idx(OpAstore, 1), jmp(OpGoto, l.l2),
				lbl(l.l1), idx(OpAload, 0), idx(OpAstore, 1),
				lbl(l.l2), op(OpReturn),
			}
		}, true, nil},
		{"int joins float: Top", AccStatic, "f", "(I)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpIload, 0), jmp(OpIfeq, l.l1),
				op(OpIconst1), idx(OpIstore, 1), jmp(OpGoto, l.l2),
				lbl(l.l1), op(OpFconst0), idx(OpFstore, 1),
				lbl(l.l2), op(OpReturn),
			}
		}, true, nil},
		{"a long's half overwritten", AccStatic, "f", "(J)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpLload, 0), op(OpLconst0), op(OpLcmp), jmp(OpIfeq, l.l1),
				op(OpLconst1), idx(OpLstore, 2), op(OpIconst0), idx(OpIstore, 3),
				lbl(l.l1), op(OpReturn),
			}
		}, true, nil},
		{"a switch", AccStatic, "f", "(I)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpIload, 0), {Op: OpTableswitch, Switch: &Switch{Default: l.l3, Low: 0, High: 1, Targets: []*Label{l.l1, l.l2}}},
				lbl(l.l1), op(OpAconstNull), jmp(OpGoto, l.l0),
				lbl(l.l2), {Op: OpLdc, Index: p.AddString("s")}, jmp(OpGoto, l.l0),
				lbl(l.l3), {Op: OpLdc, Index: p.AddString("t")},
				lbl(l.l0), op(OpPop), op(OpReturn),
			}
		}, true, nil},
		{"a backward jump to the same state", AccStatic, "f", "(I)V", func(p *Pool, l labels) []Insn {
			return []Insn{lbl(l.l0), idx(OpIload, 0), jmp(OpIfeq, l.l0), op(OpReturn)}
		}, true, nil},
		{"before super(...)", 0, "<init>", "(I)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpIload, 1), jmp(OpIfeq, l.l1), op(OpNop),
				lbl(l.l1), idx(OpAload, 0), idx(OpInvokespecial, p.AddMethodref("A", "<init>", "()V", false)),
				idx(OpIload, 1), jmp(OpIfeq, l.l2), op(OpNop),
				lbl(l.l2), op(OpReturn),
			}
		}, true, nil},
		{"a backward jump that changes the state", AccStatic, "f", "(I)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				op(OpAconstNull), idx(OpAstore, 1),
				lbl(l.l0), idx(OpIload, 0), jmp(OpIfeq, l.l1),
				op(OpIconst0), idx(OpIstore, 1), jmp(OpGoto, l.l0),
				lbl(l.l1), op(OpReturn),
			}
		}, false, nil},
		{"two classes join", AccStatic, "f", "(ILB;LC;)V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpIload, 0), jmp(OpIfeq, l.l1),
				idx(OpAload, 1), jmp(OpGoto, l.l2),
				lbl(l.l1), idx(OpAload, 2),
				lbl(l.l2), idx(OpAstore, 3), op(OpReturn),
			}
		}, false, nil},
		{"dead code", AccStatic, "f", "()V", func(p *Pool, l labels) []Insn {
			return []Insn{op(OpReturn), op(OpNop), op(OpReturn)}
		}, false, nil},
		{"new", AccStatic, "f", "()V", func(p *Pool, l labels) []Insn {
			return []Insn{
				idx(OpNew, p.AddClass("A")), op(OpDup), idx(OpInvokespecial, p.AddMethodref("A", "<init>", "()V", false)),
				op(OpPop), op(OpReturn),
			}
		}, false, nil},
		{"a handler", AccStatic, "f", "()V", func(p *Pool, l labels) []Insn {
			return []Insn{lbl(l.l0), op(OpNop), lbl(l.l1), op(OpReturn), lbl(l.l2), op(OpAthrow)}
		}, false, []Handler{{}}},
	}
	ls := new(layoutScratch)
	for _, tt := range tests {
		c := newTestClass("T", "A", 61)
		m := &Member{Access: tt.access, Name: c.Pool.AddUtf8(tt.method), Desc: c.Pool.AddUtf8(tt.desc)}
		code := func() *Code {
			l := labels{NewLabel(), NewLabel(), NewLabel(), NewLabel()}
			code := &Code{Insns: tt.insns(c.Pool, l)}
			for _, h := range tt.hand {
				h.Start, h.End, h.Handler = l.l0, l.l1, l.l2
				code.Handlers = append(code.Handlers, h)
			}
			return code
		}
		q := code()
		if _, _, _, err := q.layout(memberName{c, m}, ls); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		frames, maxStack, maxLocals, ok := straightFrames(c, m, testHierarchy, q, new(frameBuf))
		if ok != tt.want {
			t.Errorf("%s: the straight mode answered %v, want %v", tt.name, ok, tt.want)
		}
		if !ok {
			if _, _, err := code().place(c, m, EncodeOptions{Frames: true, Hierarchy: testHierarchy}, ls); err != nil {
				t.Errorf("%s: the analysis: %v", tt.name, err)
			}
			continue
		}
		if msg := compareAnalysis(c, m, testHierarchy, code(), frames, maxStack, maxLocals, ls); msg != "" {
			t.Errorf("%s: %s", tt.name, msg)
		}
	}
}
