package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"

	"github.com/weft-aop/weft/internal/jvmtest"
)

// felixBundleManifest is the bundle's: its activator, and the framework's
// package imported.
const felixBundleManifest = "Manifest-Version: 1.0\r\nBundle-ManifestVersion: 2\r\nBundle-SymbolicName: rw2.bundle\r\n" +
	"Bundle-Version: 1.0.0\r\nBundle-Activator: rw2.Activator\r\nImport-Package: org.osgi.framework\r\n\r\n"

// felix runs Apache Felix (Debian's) in each mode: it installs and starts
// one bundle whose activator calls its probeSq 10 times, then stops. The
// bundle's class loader gives the JDK's classes to a class outside every
// bundle (implicit boot delegation) but not to the bundle's own classes,
// so it does not see weft's runtime as the bundle's classes resolve it:
// the activator is defined unwoven (listed with the reason, its probe not
// counted), never woven to fail with NoClassDefFoundError: weft/rt/DIB, and
// the framework starts and stops as on the stock JDK.
func (m *matrix) felix(t *testing.T) {
	fw := debJava + "org.apache.felix.framework.jar"
	needFiles(t, "libfelix-framework-java", fw)
	launcher := jvmtest.Compile(t, matrixSources(t, "felix/launch", "FelixMain.java"), "-cp", fw)
	classes := jvmtest.Compile(t, matrixSources(t, "felix/bundle", "rw2/Activator.java"), "-cp", fw)
	bundle := filepath.Join(t.TempDir(), "rw2.jar")
	writeBundle(t, bundle, felixBundleManifest, filepath.Join(classes, "rw2", "Activator.class"))
	const want = "bundle rw2.bundle 285\nframework stopped\n"
	m.modes(t, nil, func(t *testing.T, mode matrixMode) {
		o := m.run(t, mode, "", "-cp", fw+":"+launcher, "FelixMain", t.TempDir(), bundle)
		if o.code != 0 || o.stdout != want {
			if mode == stockMode {
				t.Fatalf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
			}
			t.Errorf("exit %d, stdout %q, want %q; stderr:\n%s", o.code, o.stdout, want, tail(o.stderr))
		}
		if mode == stockMode {
			return
		}
		checkWoven(t, mode, "felix", o, nil)
		checkUnseen(t, mode, "felix", o, "rw2/Activator", "Activator.probeSq")
	})
}

// writeBundle writes a bundle jar: the manifest, then each class file
// under its package's path (rw2/).
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
		add("rw2/"+filepath.Base(c), b)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
