package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// felixBundleManifest is the activator's bundle's: its activator, and the
// framework's and the library bundle's packages imported;
// felixLibManifest the library bundle's, its package exported.
const (
	felixBundleManifest = "Manifest-Version: 1.0\r\nBundle-ManifestVersion: 2\r\nBundle-SymbolicName: rw2.bundle\r\n" +
		"Bundle-Version: 1.0.0\r\nBundle-Activator: rw2.Activator\r\nImport-Package: org.osgi.framework, rw2lib\r\n\r\n"
	felixLibManifest = "Manifest-Version: 1.0\r\nBundle-ManifestVersion: 2\r\nBundle-SymbolicName: rw2.lib\r\n" +
		"Bundle-Version: 1.0.0\r\nExport-Package: rw2lib\r\n\r\n"
)

// felix runs Apache Felix (Debian's) in each mode: it installs and starts
// two bundles, a library exporting its package and one whose activator
// calls its own probeSq 10 times and, through the package it imports, the
// library's 10 times; then it stops. A bundle's class loader gives the
// JDK's classes to a class outside every bundle (implicit boot
// delegation) but not to the bundle's own classes, so it does not see
// weft's runtime as they resolve it: both classes are bridged (their code
// reaches the runtime and the advice through java.lang.invoke), every
// probe counted exactly, and the framework starts and stops as on the
// stock JDK.
func (m *matrix) felix(t *testing.T) {
	fw := debJava + "org.apache.felix.framework.jar"
	needFiles(t, "libfelix-framework-java", fw)
	launcher := jvmtest.Compile(t, matrixSources(t, "felix/launch", "FelixMain.java"), "-cp", fw)
	lib := jvmtest.Compile(t, matrixSources(t, "felix/bundle", "rw2lib/Squares.java"))
	classes := jvmtest.Compile(t, matrixSources(t, "felix/bundle", "rw2/Activator.java"), "-cp", fw+":"+lib)
	libBundle, bundle := filepath.Join(t.TempDir(), "rw2lib.jar"), filepath.Join(t.TempDir(), "rw2.jar")
	writeBundle(t, libBundle, felixLibManifest, filepath.Join(lib, "rw2lib", "Squares.class"))
	writeBundle(t, bundle, felixBundleManifest, filepath.Join(classes, "rw2", "Activator.class"))
	const want = "bundle rw2.bundle 285 285\nframework stopped\n"
	m.modes(t, nil, func(t *testing.T, mode matrixMode) {
		o := m.run(t, mode, "", "-cp", fw+":"+launcher, "FelixMain", t.TempDir(), libBundle, bundle)
		if o.code != 0 || o.stdout != want {
			if mode == stockMode {
				t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
			}
			t.Errorf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		if mode == stockMode {
			return
		}
		checkWoven(t, mode, "felix", o, map[string]int{"rw2.Activator.probeSq": 10, "rw2lib.Squares.probeSq": 10})
		checkBridged(t, mode, "felix", o, "rw2/Activator", "rw2lib/Squares")
	})
}

// writeBundle writes a bundle jar: the manifest, then each class file
// under its package's path (its directory's name: rw2/, rw2lib/).
func writeBundle(t *testing.T, path, manifest string, classFiles ...string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	add := func(name string, data []byte) {
		w, err := z.Create(name)
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	add("META-INF/MANIFEST.MF", []byte(manifest))
	for _, c := range classFiles {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		add(filepath.Base(filepath.Dir(c))+"/"+filepath.Base(c), b)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
