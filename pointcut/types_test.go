package pointcut

import (
	"strings"
	"testing"
)

func TestSplitMethodDesc(t *testing.T) {
	tests := []struct {
		desc   string
		params string // space-separated
		ret    string
		ok     bool
	}{
		{"()V", "", "V", true},
		{"([ZZ)[Z", "[Z Z", "[Z", true},
		{"(I[[Ljava/lang/String;J)Ljava/lang/Object;", "I [[Ljava/lang/String; J", "Ljava/lang/Object;", true},
		{"(II)[[I", "I I", "[[I", true},
		{"()[V", "", "", false},
		{"(V)V", "", "", false},
		{"(L;)V", "", "", false}, // an empty class name is no type
		{"(Ljava/lang/String)V", "", "", false},
		{"(I", "", "", false},
		{"I)V", "", "", false},
		{"()", "", "", false},
		{"()X", "", "", false},
		{"([)V", "", "", false},
	}
	for _, tt := range tests {
		params, ret, ok := splitMethodDesc(tt.desc)
		if ok != tt.ok || ok && (strings.Join(params, " ") != tt.params || ret != tt.ret) {
			t.Errorf("splitMethodDesc(%q) = %q, %q, %v", tt.desc, params, ret, ok)
		}
	}
}
