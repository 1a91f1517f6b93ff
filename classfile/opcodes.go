// Opcode constants and mnemonics, from JVMS §6.5.

package classfile

// JVM opcodes.
const (
	OpNop             = 0x00
	OpAconstNull      = 0x01
	OpIconstM1        = 0x02
	OpIconst0         = 0x03
	OpIconst1         = 0x04
	OpIconst2         = 0x05
	OpIconst3         = 0x06
	OpIconst4         = 0x07
	OpIconst5         = 0x08
	OpLconst0         = 0x09
	OpLconst1         = 0x0a
	OpFconst0         = 0x0b
	OpFconst1         = 0x0c
	OpFconst2         = 0x0d
	OpDconst0         = 0x0e
	OpDconst1         = 0x0f
	OpBipush          = 0x10
	OpSipush          = 0x11
	OpLdc             = 0x12
	OpLdcW            = 0x13
	OpLdc2W           = 0x14
	OpIload           = 0x15
	OpLload           = 0x16
	OpFload           = 0x17
	OpDload           = 0x18
	OpAload           = 0x19
	OpIload0          = 0x1a
	OpIload1          = 0x1b
	OpIload2          = 0x1c
	OpIload3          = 0x1d
	OpLload0          = 0x1e
	OpLload1          = 0x1f
	OpLload2          = 0x20
	OpLload3          = 0x21
	OpFload0          = 0x22
	OpFload1          = 0x23
	OpFload2          = 0x24
	OpFload3          = 0x25
	OpDload0          = 0x26
	OpDload1          = 0x27
	OpDload2          = 0x28
	OpDload3          = 0x29
	OpAload0          = 0x2a
	OpAload1          = 0x2b
	OpAload2          = 0x2c
	OpAload3          = 0x2d
	OpIaload          = 0x2e
	OpLaload          = 0x2f
	OpFaload          = 0x30
	OpDaload          = 0x31
	OpAaload          = 0x32
	OpBaload          = 0x33
	OpCaload          = 0x34
	OpSaload          = 0x35
	OpIstore          = 0x36
	OpLstore          = 0x37
	OpFstore          = 0x38
	OpDstore          = 0x39
	OpAstore          = 0x3a
	OpIstore0         = 0x3b
	OpIstore1         = 0x3c
	OpIstore2         = 0x3d
	OpIstore3         = 0x3e
	OpLstore0         = 0x3f
	OpLstore1         = 0x40
	OpLstore2         = 0x41
	OpLstore3         = 0x42
	OpFstore0         = 0x43
	OpFstore1         = 0x44
	OpFstore2         = 0x45
	OpFstore3         = 0x46
	OpDstore0         = 0x47
	OpDstore1         = 0x48
	OpDstore2         = 0x49
	OpDstore3         = 0x4a
	OpAstore0         = 0x4b
	OpAstore1         = 0x4c
	OpAstore2         = 0x4d
	OpAstore3         = 0x4e
	OpIastore         = 0x4f
	OpLastore         = 0x50
	OpFastore         = 0x51
	OpDastore         = 0x52
	OpAastore         = 0x53
	OpBastore         = 0x54
	OpCastore         = 0x55
	OpSastore         = 0x56
	OpPop             = 0x57
	OpPop2            = 0x58
	OpDup             = 0x59
	OpDupX1           = 0x5a
	OpDupX2           = 0x5b
	OpDup2            = 0x5c
	OpDup2X1          = 0x5d
	OpDup2X2          = 0x5e
	OpSwap            = 0x5f
	OpIadd            = 0x60
	OpLadd            = 0x61
	OpFadd            = 0x62
	OpDadd            = 0x63
	OpIsub            = 0x64
	OpLsub            = 0x65
	OpFsub            = 0x66
	OpDsub            = 0x67
	OpImul            = 0x68
	OpLmul            = 0x69
	OpFmul            = 0x6a
	OpDmul            = 0x6b
	OpIdiv            = 0x6c
	OpLdiv            = 0x6d
	OpFdiv            = 0x6e
	OpDdiv            = 0x6f
	OpIrem            = 0x70
	OpLrem            = 0x71
	OpFrem            = 0x72
	OpDrem            = 0x73
	OpIneg            = 0x74
	OpLneg            = 0x75
	OpFneg            = 0x76
	OpDneg            = 0x77
	OpIshl            = 0x78
	OpLshl            = 0x79
	OpIshr            = 0x7a
	OpLshr            = 0x7b
	OpIushr           = 0x7c
	OpLushr           = 0x7d
	OpIand            = 0x7e
	OpLand            = 0x7f
	OpIor             = 0x80
	OpLor             = 0x81
	OpIxor            = 0x82
	OpLxor            = 0x83
	OpIinc            = 0x84
	OpI2l             = 0x85
	OpI2f             = 0x86
	OpI2d             = 0x87
	OpL2i             = 0x88
	OpL2f             = 0x89
	OpL2d             = 0x8a
	OpF2i             = 0x8b
	OpF2l             = 0x8c
	OpF2d             = 0x8d
	OpD2i             = 0x8e
	OpD2l             = 0x8f
	OpD2f             = 0x90
	OpI2b             = 0x91
	OpI2c             = 0x92
	OpI2s             = 0x93
	OpLcmp            = 0x94
	OpFcmpl           = 0x95
	OpFcmpg           = 0x96
	OpDcmpl           = 0x97
	OpDcmpg           = 0x98
	OpIfeq            = 0x99
	OpIfne            = 0x9a
	OpIflt            = 0x9b
	OpIfge            = 0x9c
	OpIfgt            = 0x9d
	OpIfle            = 0x9e
	OpIfIcmpeq        = 0x9f
	OpIfIcmpne        = 0xa0
	OpIfIcmplt        = 0xa1
	OpIfIcmpge        = 0xa2
	OpIfIcmpgt        = 0xa3
	OpIfIcmple        = 0xa4
	OpIfAcmpeq        = 0xa5
	OpIfAcmpne        = 0xa6
	OpGoto            = 0xa7
	OpJsr             = 0xa8
	OpRet             = 0xa9
	OpTableswitch     = 0xaa
	OpLookupswitch    = 0xab
	OpIreturn         = 0xac
	OpLreturn         = 0xad
	OpFreturn         = 0xae
	OpDreturn         = 0xaf
	OpAreturn         = 0xb0
	OpReturn          = 0xb1
	OpGetstatic       = 0xb2
	OpPutstatic       = 0xb3
	OpGetfield        = 0xb4
	OpPutfield        = 0xb5
	OpInvokevirtual   = 0xb6
	OpInvokespecial   = 0xb7
	OpInvokestatic    = 0xb8
	OpInvokeinterface = 0xb9
	OpInvokedynamic   = 0xba
	OpNew             = 0xbb
	OpNewarray        = 0xbc
	OpAnewarray       = 0xbd
	OpArraylength     = 0xbe
	OpAthrow          = 0xbf
	OpCheckcast       = 0xc0
	OpInstanceof      = 0xc1
	OpMonitorenter    = 0xc2
	OpMonitorexit     = 0xc3
	OpWide            = 0xc4
	OpMultianewarray  = 0xc5
	OpIfnull          = 0xc6
	OpIfnonnull       = 0xc7
	OpGotoW           = 0xc8
	OpJsrW            = 0xc9
)

// OpNames maps an opcode to its mnemonic ("" for unused opcodes).
var OpNames = [256]string{
	0x00: "nop",
	0x01: "aconst_null",
	0x02: "iconst_m1",
	0x03: "iconst_0",
	0x04: "iconst_1",
	0x05: "iconst_2",
	0x06: "iconst_3",
	0x07: "iconst_4",
	0x08: "iconst_5",
	0x09: "lconst_0",
	0x0a: "lconst_1",
	0x0b: "fconst_0",
	0x0c: "fconst_1",
	0x0d: "fconst_2",
	0x0e: "dconst_0",
	0x0f: "dconst_1",
	0x10: "bipush",
	0x11: "sipush",
	0x12: "ldc",
	0x13: "ldc_w",
	0x14: "ldc2_w",
	0x15: "iload",
	0x16: "lload",
	0x17: "fload",
	0x18: "dload",
	0x19: "aload",
	0x1a: "iload_0",
	0x1b: "iload_1",
	0x1c: "iload_2",
	0x1d: "iload_3",
	0x1e: "lload_0",
	0x1f: "lload_1",
	0x20: "lload_2",
	0x21: "lload_3",
	0x22: "fload_0",
	0x23: "fload_1",
	0x24: "fload_2",
	0x25: "fload_3",
	0x26: "dload_0",
	0x27: "dload_1",
	0x28: "dload_2",
	0x29: "dload_3",
	0x2a: "aload_0",
	0x2b: "aload_1",
	0x2c: "aload_2",
	0x2d: "aload_3",
	0x2e: "iaload",
	0x2f: "laload",
	0x30: "faload",
	0x31: "daload",
	0x32: "aaload",
	0x33: "baload",
	0x34: "caload",
	0x35: "saload",
	0x36: "istore",
	0x37: "lstore",
	0x38: "fstore",
	0x39: "dstore",
	0x3a: "astore",
	0x3b: "istore_0",
	0x3c: "istore_1",
	0x3d: "istore_2",
	0x3e: "istore_3",
	0x3f: "lstore_0",
	0x40: "lstore_1",
	0x41: "lstore_2",
	0x42: "lstore_3",
	0x43: "fstore_0",
	0x44: "fstore_1",
	0x45: "fstore_2",
	0x46: "fstore_3",
	0x47: "dstore_0",
	0x48: "dstore_1",
	0x49: "dstore_2",
	0x4a: "dstore_3",
	0x4b: "astore_0",
	0x4c: "astore_1",
	0x4d: "astore_2",
	0x4e: "astore_3",
	0x4f: "iastore",
	0x50: "lastore",
	0x51: "fastore",
	0x52: "dastore",
	0x53: "aastore",
	0x54: "bastore",
	0x55: "castore",
	0x56: "sastore",
	0x57: "pop",
	0x58: "pop2",
	0x59: "dup",
	0x5a: "dup_x1",
	0x5b: "dup_x2",
	0x5c: "dup2",
	0x5d: "dup2_x1",
	0x5e: "dup2_x2",
	0x5f: "swap",
	0x60: "iadd",
	0x61: "ladd",
	0x62: "fadd",
	0x63: "dadd",
	0x64: "isub",
	0x65: "lsub",
	0x66: "fsub",
	0x67: "dsub",
	0x68: "imul",
	0x69: "lmul",
	0x6a: "fmul",
	0x6b: "dmul",
	0x6c: "idiv",
	0x6d: "ldiv",
	0x6e: "fdiv",
	0x6f: "ddiv",
	0x70: "irem",
	0x71: "lrem",
	0x72: "frem",
	0x73: "drem",
	0x74: "ineg",
	0x75: "lneg",
	0x76: "fneg",
	0x77: "dneg",
	0x78: "ishl",
	0x79: "lshl",
	0x7a: "ishr",
	0x7b: "lshr",
	0x7c: "iushr",
	0x7d: "lushr",
	0x7e: "iand",
	0x7f: "land",
	0x80: "ior",
	0x81: "lor",
	0x82: "ixor",
	0x83: "lxor",
	0x84: "iinc",
	0x85: "i2l",
	0x86: "i2f",
	0x87: "i2d",
	0x88: "l2i",
	0x89: "l2f",
	0x8a: "l2d",
	0x8b: "f2i",
	0x8c: "f2l",
	0x8d: "f2d",
	0x8e: "d2i",
	0x8f: "d2l",
	0x90: "d2f",
	0x91: "i2b",
	0x92: "i2c",
	0x93: "i2s",
	0x94: "lcmp",
	0x95: "fcmpl",
	0x96: "fcmpg",
	0x97: "dcmpl",
	0x98: "dcmpg",
	0x99: "ifeq",
	0x9a: "ifne",
	0x9b: "iflt",
	0x9c: "ifge",
	0x9d: "ifgt",
	0x9e: "ifle",
	0x9f: "if_icmpeq",
	0xa0: "if_icmpne",
	0xa1: "if_icmplt",
	0xa2: "if_icmpge",
	0xa3: "if_icmpgt",
	0xa4: "if_icmple",
	0xa5: "if_acmpeq",
	0xa6: "if_acmpne",
	0xa7: "goto",
	0xa8: "jsr",
	0xa9: "ret",
	0xaa: "tableswitch",
	0xab: "lookupswitch",
	0xac: "ireturn",
	0xad: "lreturn",
	0xae: "freturn",
	0xaf: "dreturn",
	0xb0: "areturn",
	0xb1: "return",
	0xb2: "getstatic",
	0xb3: "putstatic",
	0xb4: "getfield",
	0xb5: "putfield",
	0xb6: "invokevirtual",
	0xb7: "invokespecial",
	0xb8: "invokestatic",
	0xb9: "invokeinterface",
	0xba: "invokedynamic",
	0xbb: "new",
	0xbc: "newarray",
	0xbd: "anewarray",
	0xbe: "arraylength",
	0xbf: "athrow",
	0xc0: "checkcast",
	0xc1: "instanceof",
	0xc2: "monitorenter",
	0xc3: "monitorexit",
	0xc4: "wide",
	0xc5: "multianewarray",
	0xc6: "ifnull",
	0xc7: "ifnonnull",
	0xc8: "goto_w",
	0xc9: "jsr_w",
}
