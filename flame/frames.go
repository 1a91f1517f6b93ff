package flame

import "strings"

// A FrameKind says whose code a frame is: the JDK's, the program's, or a
// frame Java's stack traces hide (a lambda form, a lambda's proxy).
type FrameKind int

const (
	ProgramFrame FrameKind = iota
	JDKFrame
	HiddenFrame
	SiteFrame // an allocation site, "new T": no code of its own
)

// jdkPackages are the packages of the JDK's modules, as frame names
// start (java.base's are the first five).
var jdkPackages = []string{"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "org.ietf.", "org.jcp.", "netscape."}

// KindOf returns the kind of a frame named as weft's tools name them:
// "pkg.Class.method", or "new T" for an allocation site.
func KindOf(frame string) FrameKind {
	switch {
	case strings.HasPrefix(frame, "new "):
		return SiteFrame
	case strings.Contains(frame, "$$Lambda") || strings.HasPrefix(frame, "java.lang.invoke.LambdaForm$") ||
		strings.HasPrefix(frame, "java.lang.invoke.") && strings.Contains(frame, "$Holder."):
		return HiddenFrame
	}
	for _, p := range jdkPackages {
		if strings.HasPrefix(frame, p) {
			return JDKFrame
		}
	}
	return ProgramFrame
}
