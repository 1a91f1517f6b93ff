package jdk

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A woven JDK's ids table lists, for each class whose sister holds static
// parts, the first join point id of the class, its module and its
// sister's binary name, one line each ("BASE MODULE SISTER"), in order of
// BASE. weft.rt.Parts reads it to initialize the sister holding an id
// whose class never did (a sister registers its parts as it initializes,
// and a class whose advice calls are all shared helpers never initializes
// its sister): WeaveModules writes it to Out/ids, LinkImage copies it to
// the image's lib/weft/ids, where Parts looks by default, and WriteArgs
// names it in the weft.ids property for a JVM run with the patches.

// IDsFile is the ids table's name in a WeaveModules output directory;
// ImageIDs its place in a linked image.
const (
	IDsFile  = "ids"
	ImageIDs = "lib/weft/ids"
)

// idEntry is one line of the ids table.
type idEntry struct {
	Base   int32
	Module string
	Sister string // internal name
}

// writeIDs writes the ids table of entries to path.
func writeIDs(path string, entries []idEntry) error {
	slices.SortFunc(entries, func(a, b idEntry) int { return cmp.Compare(a.Base, b.Base) })
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, e := range entries {
		fmt.Fprintf(w, "%d %s %s\n", e.Base, e.Module, strings.ReplaceAll(e.Sister, "/", "."))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// copyIDs copies the woven modules' ids table into the image, if they
// have one.
func (b *imageBuild) copyIDs() error {
	data, err := os.ReadFile(filepath.Join(b.opts.Woven, IDsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	out := filepath.Join(b.opts.Out, ImageIDs)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
