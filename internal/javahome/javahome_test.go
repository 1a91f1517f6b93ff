package javahome

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeJDK makes a directory that looks like a JDK home to Default and Of:
// an executable bin/java and, if withImage, a lib/modules file.
func fakeJDK(t *testing.T, withImage bool) string {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	os.MkdirAll(filepath.Join(home, "lib"), 0o755)
	if err := os.WriteFile(filepath.Join(home, "bin", "java"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if withImage {
		if err := os.WriteFile(filepath.Join(home, "lib", "modules"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The java on PATH wins over $JAVA_HOME: the order every command and test
// uses.
func TestDefaultPrefersJavaOnPath(t *testing.T) {
	onPath, other := fakeJDK(t, true), fakeJDK(t, true)
	t.Setenv("PATH", filepath.Join(onPath, "bin"))
	t.Setenv("JAVA_HOME", other)
	if h, err := Default(); err != nil || h != onPath {
		t.Errorf("Default() = %q, %v; want the java on PATH's home %s", h, err, onPath)
	}

	// A java on PATH without a modules image is skipped for $JAVA_HOME.
	t.Setenv("PATH", filepath.Join(fakeJDK(t, false), "bin"))
	if h, err := Default(); err != nil || h != other {
		t.Errorf("Default() = %q, %v; want $JAVA_HOME %s", h, err, other)
	}

	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	if h, err := Default(); err == nil {
		t.Errorf("Default() = %q with no java and no JAVA_HOME", h)
	}
}

// Of follows symlinks to the launcher, as /usr/bin/java is one.
func TestOfFollowsSymlinks(t *testing.T) {
	home := fakeJDK(t, true)
	link := filepath.Join(t.TempDir(), "java")
	if err := os.Symlink(filepath.Join(home, "bin", "java"), link); err != nil {
		t.Fatal(err)
	}
	if h, err := Of(link); err != nil || h != home {
		t.Errorf("Of(%s) = %q, %v; want %s", link, h, err, home)
	}
	noImage := fakeJDK(t, false)
	if _, err := Of(filepath.Join(noImage, "bin", "java")); err == nil {
		t.Errorf("Of accepted %s, which has no lib/modules", noImage)
	}
}
