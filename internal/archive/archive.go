// Package archive is weft's one pipeline from an input of class files to
// its changed copy: weaving a jar or class directory (weaver.WeavePath),
// re-encoding one (weft classfile rewrite), and writing the JDK's patch
// jars and trees (weaver/jdk) all go through it.
//
// Open lists an input (a jar, a directory tree or a single class file);
// Run hands its class entries to a Transform on all cores and writes the
// output in the input's form:
//
//   - Entries are written in input order, a changed class followed by the
//     classes it adds (a woven class's sister class), whatever order the
//     workers finish them in. Join point numbering in Transform.Number is
//     in input order too, so the output does not depend on scheduling.
//   - A jar is written while later classes are still being transformed;
//     each changed entry is compressed (or stored) by the worker that made
//     it, and every other entry is copied raw, still compressed, byte for
//     byte (zip.Writer.CreateRaw): nothing is recompressed or dropped.
//   - A jar is written to a temporary file next to the output and renamed
//     over it at the end: a failed run leaves no partial jar. Errors name
//     the output as the caller did, never the temporary file.
//   - A signed jar whose classes change gets a warning: its signatures no
//     longer match.
//   - A class defined by two entries (a stale copy under another path,
//     e.g. old/com/x/A.class or com/x/A_old.class next to com/x/A.class)
//     is transformed only in the entry whose path matches its name; the
//     copy is written unchanged, with a warning naming both. Transforming
//     both made two sets of added classes for one class name: the copy's
//     sister class took the real class's place, and the real class ran
//     against the copy's join points.
//
// The package is internal: it is plumbing shared by weft's packages and
// commands, not part of weft's library API (weaver.WeavePath is). It sits
// below cmd/weft, weaver and weaver/jdk and above classfile, which parses
// the class headers, and classpath, whose ReadZipEntry reads every jar
// entry.
package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-aop/weft/classfile"
	"github.com/weft-aop/weft/internal/parallel"
)

// Options configure Run.
type Options struct {
	// Store writes changed classes uncompressed into a jar output (else
	// they keep their input entry's compression). The weaver stores:
	// deflating cost a quarter of its time on a jar, and class loading
	// reads stored entries directly.
	Store bool
	// Workers bounds the goroutines transforming classes; 0 means all
	// cores.
	Workers int
}

// Report sums up a Run.
type Report struct {
	Classes int // class entries
	Changed int // classes the transform changed
	Copied  int // other entries (resources, directories), copied unchanged
	// Warnings are about class entries the transform did not see
	// (unreadable, stale copies), extra classes not added, signatures.
	Warnings []string
}

// Run applies t to the class entries of in and writes the result to out:
// a jar for a jar, a directory tree for a directory; for a class file,
// out itself, or out/<its name> if out is a directory (with any extra
// classes next to it). It stops at the first input or output error; class
// errors are the transform's business.
func Run(in *Input, out string, t Transform, opts Options) (*Report, error) {
	r := &runner{in: in, t: t, opts: opts, items: make([]item, len(in.Entries))}
	if err := r.create(out); err != nil {
		return nil, err
	}
	if in.Kind == Jar || (in.Kind == Dir && !in.fromSource) {
		r.defined = definedClasses(in)
	}
	stages := []parallel.Stage{
		{Do: r.begin},
		{Do: r.number, InOrder: true},
		{Do: r.finish},
	}
	if r.w.kind == Jar {
		stages = append(stages, parallel.Stage{Do: r.write, InOrder: true})
	}
	if err := parallel.Run(len(in.Entries), opts.Workers, stages...); err != nil {
		r.w.Abort()
		return nil, err
	}
	if in.comment != "" {
		r.w.SetComment(in.comment)
	}
	if err := r.w.Close(); err != nil {
		return nil, err
	}
	return r.report(), nil
}

// runner is one Run.
type runner struct {
	in    *Input
	t     Transform
	opts  Options
	w     *Writer
	items []item // by entry index
	// single is the output name of a class file input's entry.
	single string
	// defined maps class names to the first entry whose path matches
	// them, to tell stale copies.
	defined map[string]string
}

// item is an entry on its way through Run.
type item struct {
	class   string // the class's name, "" until read (or unreadable)
	data    []byte // a directory output's copy of an unchanged entry
	pending Pending
	out     *Output  // until written
	changed bool     // out was not nil
	packed  []packed // a jar output's changed class and its extras
	// warnings about the entry, reported in input order.
	warnings []string
	// misplaced is set for a class stored under a path that is not its
	// name's (reported together: a jar may hold hundreds).
	misplaced bool
}

// create opens the output writer.
func (r *runner) create(out string) (err error) {
	switch r.in.Kind {
	case Jar:
		r.w, err = CreateJar(out)
	case Dir:
		r.w, err = CreateDir(out)
	case Class:
		if fi, serr := os.Stat(out); serr == nil && fi.IsDir() {
			out = filepath.Join(out, filepath.Base(r.in.Path))
		}
		r.single = filepath.Base(out)
		if r.w, err = CreateDir(filepath.Dir(out)); err == nil {
			r.w.whole = true
		}
	}
	return err
}

// begin reads a class entry and hands it to the transform (parallel).
func (r *runner) begin(i int) error {
	e, it := r.in.Entries[i], &r.items[i]
	if !e.IsClass() {
		return nil
	}
	data, err := e.Read()
	if err != nil {
		it.warnings = append(it.warnings, fmt.Sprintf("%s: copied unchanged: %v", r.in.Label(e), err))
		return nil
	}
	if r.w.kind != Jar {
		it.data = data
	}
	if info, err := classfile.ReadClassInfo(e.Name, data); err == nil {
		it.class = info.Name
		if r.defined != nil && !r.inPlace(e.Name, it.class) {
			if own, ok := r.defined[it.class]; ok {
				it.warnings = append(it.warnings, fmt.Sprintf("%s: copied unchanged: a copy of class %s, whose own entry is %s",
					r.in.Label(e), it.class, own))
			} else {
				it.misplaced = true
			}
			return nil
		}
	}
	it.pending = r.t.Begin(e, data)
	return nil
}

// inPlace reports whether the class named class, stored at entry name, is
// where a loader looks it up: at its name's path in a jar (a class path's
// root); in a directory, at its name's path or at the end of it (a
// package's directory, app/ holding app/Main as Main.class, its added
// classes written beside it).
func (r *runner) inPlace(name, class string) bool {
	p := classPath(name)
	return p == class || r.in.Kind == Dir && strings.HasSuffix(class, "/"+p)
}

// number lets the transform number the classes in input order.
func (r *runner) number(i int) error {
	if p := r.items[i].pending; p != nil {
		p.Number()
	}
	return nil
}

// finish completes a class (parallel): a jar's entries are then packed,
// a directory's files written.
func (r *runner) finish(i int) error {
	e, it := r.in.Entries[i], &r.items[i]
	if it.pending != nil {
		it.out, it.pending = it.pending.Finish(), nil
		if it.out != nil && it.out.Class == nil {
			it.out = nil
		}
		it.changed = it.out != nil
	}
	if r.w.kind == Jar {
		if it.out != nil {
			method := e.zf.Method
			if r.opts.Store {
				method = 0 // zip.Store
			}
			it.packed = append(it.packed, pack(e.Name, it.out.Class, method, &e.zf.FileHeader))
			for _, n := range sortedKeys(it.out.Extra) {
				it.packed = append(it.packed, pack(extraPath(e.Name, it.class, n), it.out.Extra[n], method, &e.zf.FileHeader))
			}
			it.out = nil
		}
		return nil
	}
	return r.writeFiles(e, it)
}

// writeFiles writes an entry of a directory or class file output.
func (r *runner) writeFiles(e *Entry, it *item) error {
	name := e.Name
	if r.single != "" {
		name = r.single
	}
	data := it.data
	if it.out != nil {
		data = it.out.Class
	}
	if data == nil && !e.IsDir() {
		var err error
		if data, err = e.Read(); err != nil {
			return err
		}
	}
	out := it.out
	it.data, it.out = nil, nil
	if err := r.w.writeFile(name, data); err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	for _, n := range sortedKeys(out.Extra) {
		if err := r.w.writeFile(extraPath(name, it.class, n), out.Extra[n]); err != nil {
			return err
		}
	}
	return nil
}

// write writes a jar entry (in input order).
func (r *runner) write(i int) error {
	e, it := r.in.Entries[i], &r.items[i]
	if it.packed == nil {
		return e.guard(func() error { return r.w.copyRaw(e.zf) })
	}
	if r.w.names == nil {
		r.w.names = make(map[string]bool, len(r.in.Entries))
		for _, e := range r.in.Entries {
			r.w.names[e.Name] = true
		}
	}
	for k, p := range it.packed {
		if k > 0 && r.w.names[p.header.Name] {
			it.warnings = append(it.warnings, fmt.Sprintf("%s: %s already exists: the class added for %s was not written",
				r.in.Path, p.header.Name, e.Name))
			continue
		}
		r.w.names[p.header.Name] = true
		if err := r.w.addPacked(p); err != nil {
			return err
		}
	}
	it.packed = nil
	return nil
}

// report counts the entries and gathers the warnings in input order.
func (r *runner) report() *Report {
	rep := &Report{}
	signature := ""
	var misplaced []string
	for i, e := range r.in.Entries {
		it := &r.items[i]
		switch {
		case e.IsClass():
			rep.Classes++
			if it.changed {
				rep.Changed++
			}
			if it.misplaced {
				misplaced = append(misplaced, fmt.Sprintf("%s holds %s", e.Name, it.class))
			}
		default:
			rep.Copied++
			if signature == "" && r.in.Kind == Jar && signatureFile(e.Name) {
				signature = e.Name
			}
		}
		rep.Warnings = append(rep.Warnings, it.warnings...)
	}
	if len(misplaced) > 0 {
		rep.Warnings = append(rep.Warnings, misplacedWarning(r.in.Path, r.in.Kind, misplaced))
	}
	if signature != "" && rep.Changed > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: signed jar (%s): the changed classes no longer match its signatures; remove them or re-sign",
			r.in.Path, signature))
	}
	return rep
}
