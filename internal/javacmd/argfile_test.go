package javacmd

import (
	"reflect"
	"testing"
)

func TestSplitArgFile(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"-cp a:b\nMain x", []string{"-cp", "a:b", "Main", "x"}},
		{"  -Dk=v\t\f-ea\r\n\n", []string{"-Dk=v", "-ea"}},
		{`-Dk="a b" 'c d'`, []string{"-Dk=a b", "c d"}},
		{`"it's" 'say "hi"'`, []string{"it's", `say "hi"`}},
		{"# a comment\n-ea # another\nMain", []string{"-ea", "Main"}},
		{`"#not a comment"`, []string{"#not a comment"}},
		{`C:\dir\x.jar`, []string{`C:\dir\x.jar`}},
		{`"a\tb\nc\\d\qe"`, []string{"a\tb\nc\\dqe"}},
		{"\"long \\\n     line\"", []string{"long line"}},
		{"\"unclosed\nnext", []string{"unclosed", "next"}}, // a line end ends a quoted argument
		{`"" x`, []string{"", "x"}},
		{`"at end`, []string{"at end"}},
		{"", nil},
	} {
		if got := splitArgFile(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitArgFile(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func FuzzSplitArgFile(f *testing.F) {
	for _, s := range []string{"-cp a Main", `"a\` + "\n b\"", "# c\n'x'", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, a := range splitArgFile(text) {
			if len(a) > len(text) {
				t.Fatalf("argument %q longer than the file %q", a, text)
			}
		}
	})
}
