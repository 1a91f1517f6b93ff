package pointcut

import (
	"strings"
	"testing"
)

// A type written without its package gets a hint naming the classes so
// named in the JDK (public ones of exported packages, java.base first),
// not a guessed package.
func TestUnqualifiedTypeHintNamesRealClasses(t *testing.T) {
	for _, tt := range []struct{ name, hint string }{
		{"Map", "write the fully qualified name: java.util.Map"},
		{"List", "write the fully qualified name: java.util.List or java.awt.List"},
		{"IOException", "write the fully qualified name: java.io.IOException"},
		{"NoSuchClassAnywhere", "write the fully qualified name"},
	} {
		_, c := compileTypeText(t, tt.name)
		if len(c.warns) != 1 || c.warns[0].Hint != tt.hint {
			t.Errorf("%s: warnings %v, want one with hint %q", tt.name, c.warns, tt.hint)
		}
	}

	// Errors get the same candidates: a formal's type, a type in target().
	_, err := resolveCP(t, "", `before(Map m): target(m) { a.B.c(m); }`)
	if err == nil || !contains(err.Error(), "formal m: unknown type Map", "hint: write the fully qualified name: java.util.Map") ||
		strings.Contains(err.Error(), "java.io.Map") {
		t.Errorf("formal of type Map: %v", err)
	}
	_, err = resolveCP(t, "", `before(): target(Map) { a.B.c(); }`)
	if err == nil || !contains(err.Error(), "other types need their package: java.util.Map") {
		t.Errorf("target(Map): %v", err)
	}
}

// Classes of the advice class path are candidates too.
func TestUnqualifiedTypeHintSearchesAdviceClassPath(t *testing.T) {
	dir := compileTracker(t)
	p, err := resolveCP(t, dir, `before(): call(* Tracker.*(..)) { example.tracker.Tracker.onPut(thisJoinPointStaticPart); }`)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Hint != "write the fully qualified name: example.tracker.Tracker" {
		t.Errorf("warnings %v, want a hint naming example.tracker.Tracker", p.Warnings)
	}
}
