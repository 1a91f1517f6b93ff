package jdk

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/classfile/jimage"
)

// A JDK without jmods/ (JEP 493, JDK 24 on: Temurin 25 ships none) keeps
// in its image, for jlink's own use, a list per module of the files the
// module's jmod held outside its classes: jdk.jlink's
// fs_MODULE_files. From that list and the JDK's directories a module's
// jmod is rebuilt, its classes from the image; LinkImage then links every
// module from such jmods, as from the stock ones. docs/jdk.md says why not
// jlink's own link from the run-time image (it is turned off as soon as
// java.base is on the module path, and a woven java.base is).

// fileListDir is where jdk.jlink keeps the lists, fileListDir+"fs_"+M+"_files".
const fileListDir = "jdk/tools/jlink/internal/runtimelink/"

// fileListModule is the module that holds the lists.
const fileListModule = "jdk.jlink"

// listedSections maps the entry kinds of a file list (jlink's
// ResourcePoolEntry.Type, by ordinal) to the jmod section that holds such
// a file; the image path is the same, except legal notices, which the
// image keeps under legal/MODULE/.
var listedSections = map[string]string{
	"1": "conf/",
	"2": "include/",
	"3": "legal/",
	"4": "man/",
	"5": "bin/",
	"6": "lib/",
}

// listedFile is a file of a module outside its classes: its name in the
// jmod (section included) and its path relative to the JDK's home.
type listedFile struct {
	jmodName, homePath string
}

// HasModuleFileLists reports whether the JDK at javaHome keeps, in its
// image, the lists of its modules' files (a JDK built to link from its
// run-time image: jlink's fs_MODULE_files).
func HasModuleFileLists(javaHome string) bool {
	img, err := jimage.Open(filepath.Join(javaHome, "lib", "modules"))
	if err != nil {
		return false
	}
	defer img.Close()
	_, err = img.Find(fileListModule, fileListDir+"fs_java.base_files")
	return err == nil
}

// CanLinkImage reports whether a runtime image can be linked from the JDK
// at javaHome: from its jmods, or from its image and its module file lists.
func CanLinkImage(javaHome string) bool {
	return HasJmods(javaHome) || HasModuleFileLists(javaHome)
}

// parseFileList reads module m's file list: one file a line,
// "KIND|SYMLINK|HASH-OR-TARGET|PATH" (PATH relative to the JDK's home, a
// link's content read through it). Lines of kinds a jmod has no section
// for are refused, as are paths outside the JDK's home or their section.
func parseFileList(m string, data []byte) ([]listedFile, error) {
	var out []listedFile
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		where := func(f string, a ...any) error {
			return fmt.Errorf("%s%s_files:%d: %s", fileListDir+"fs_", m, i+1, fmt.Sprintf(f, a...))
		}
		f := strings.Split(line, "|")
		if len(f) != 4 {
			return nil, where("%d fields, want 4 (KIND|SYMLINK|HASH|PATH)", len(f))
		}
		section, ok := listedSections[f[0]]
		if !ok {
			return nil, where("kind %q has no jmod section", f[0])
		}
		p := f[3]
		if !filepath.IsLocal(p) || path.Clean(p) != p {
			return nil, where("path %q is not inside the JDK", p)
		}
		prefix := section
		if section == "legal/" {
			prefix += m + "/"
		}
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || rest == "" {
			return nil, where("path %q is not under %s", p, prefix)
		}
		out = append(out, listedFile{jmodName: section + rest, homePath: p})
	}
	return out, nil
}

// imageModule is a module of a JDK without jmods: its classes section is
// the image's resources, its other sections the listed files.
type imageModule struct {
	name  string
	home  string
	img   *jimage.Image
	ents  map[string]jimage.Entry
	files []listedFile
}

// openImageModule returns module m of the image img (the JDK at home),
// ents its entries.
func openImageModule(home string, img *jimage.Image, m string, ents []jimage.Entry) (*imageModule, error) {
	list, err := img.Read(fileListModule, fileListDir+"fs_"+m+"_files")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no list of module %s's files (%s): cannot rebuild its jmod", img.Path(), m, fileListDir+"fs_"+m+"_files")
	}
	if err != nil {
		return nil, err
	}
	files, err := parseFileList(m, list)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", img.Path(), err)
	}
	im := &imageModule{name: m, home: home, img: img, ents: make(map[string]jimage.Entry, len(ents)), files: files}
	for _, e := range ents {
		im.ents[e.Name] = e
	}
	return im, nil
}

func (im *imageModule) classes() map[string]bool {
	out := make(map[string]bool, len(im.ents))
	for n := range im.ents {
		out[n] = true
	}
	return out
}

func (im *imageModule) read(name string) ([]byte, error) {
	n, ok := strings.CutPrefix(name, classesSection)
	e, found := im.ents[n]
	if !ok || !found {
		return nil, fmt.Errorf("%s: module %s has no %s", im.img.Path(), im.name, name)
	}
	return im.img.ReadEntry(e)
}

// copySections writes the listed files, read from the JDK's home, as the
// jmod's sections other than classes.
func (im *imageModule) copySections(zw *zip.Writer) error {
	for _, f := range im.files {
		data, err := os.ReadFile(filepath.Join(im.home, filepath.FromSlash(f.homePath)))
		if err != nil {
			return fmt.Errorf("module %s: %v", im.name, err)
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.jmodName, Method: zip.Store})
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	return nil
}

func (im *imageModule) Close() error { return nil }
