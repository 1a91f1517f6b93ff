package ltw

import (
	"fmt"
	"io"
	"strings"

	"github.com/weft-aop/weft/classfile"
)

// Asker asks the JVM for the bytes of a class (internal name) as the
// defining loader of the class being woven finds them: nil if it has none.
// An error means the channel failed.
type Asker func(name string) ([]byte, error)

// maxQueries bounds the classes asked of the JVM for one request,
// maxSupertypes the supertypes walked.
const (
	maxQueries    = 64
	maxSupertypes = 1024
)

// learnSupertypes makes the hierarchy know the class's supertypes before
// it is woven. The JVM sends a class before it loads its superclass and
// interfaces, so those of a class defined at run time (a plugin's base
// class) may be unknown yet: each one found neither among the classes
// defined so far, nor on the class path or in the JDK, nor in the code
// sources learned (Hierarchy.Learn) is asked of the JVM, and so on up (at
// most maxQueries per class; the walk goes on above those found, but for
// the class path's and the JDK's, whose own are there). Without it,
// matching through a supertype (execution(* Base+.run())) would miss the
// class. It returns how many classes ask gave.
func (s *Server) learnSupertypes(info *classfile.ClassInfo, ask Asker) (learned int, err error) {
	todo := supertypes(info)
	visited := map[string]bool{}
	asked := 0
	for len(todo) > 0 && asked < maxQueries && len(visited) < maxSupertypes {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if visited[name] {
			continue
		}
		visited[name] = true
		if sup, static, err := s.h.find(name); err == nil {
			if !static {
				todo = append(todo, supertypes(sup)...)
			}
			continue
		}
		asked++
		b, err := ask(name)
		if err != nil {
			return learned, err
		}
		if len(b) == 0 {
			continue
		}
		sup, err := s.h.Add(name, b)
		if err != nil {
			continue // not a class file: matching goes on without it
		}
		if sup.Name != name {
			return learned, fmt.Errorf("asked for %s, the JVM sent %s", name, sup.Name)
		}
		learned++
		todo = append(todo, supertypes(sup)...)
	}
	return learned, nil
}

// learnMissing asks the JVM for the types in missing, which the frames of
// a method needed (weaver.Result.Missing), and learns them with their
// supertypes; it returns how many classes it learned.
func (s *Server) learnMissing(missing []string, ask Asker) (learned int, err error) {
	for _, name := range missing {
		if _, _, err := s.h.find(name); err == nil {
			continue // learned meanwhile
		}
		b, err := ask(name)
		if err != nil {
			return learned, err
		}
		if len(b) == 0 {
			continue // the loader does not find it either
		}
		info, err := s.h.Add(name, b)
		if err != nil || info.Name != name {
			continue
		}
		learned++
		n, err := s.learnSupertypes(info, ask)
		learned += n
		if err != nil {
			return learned, err
		}
	}
	return learned, nil
}

func supertypes(info *classfile.ClassInfo) []string {
	var out []string
	if info.Super != "" {
		out = append(out, info.Super)
	}
	return append(out, info.Interfaces...)
}

// connAsker asks over the connection a request came on: a StatusQuery
// frame out, an Answer request back.
func connAsker(w io.Writer, r io.Reader) Asker {
	return func(name string) ([]byte, error) {
		q, err := AppendResponse(nil, &Response{Status: StatusQuery, Query: strings.ReplaceAll(name, "/", ".")})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(q); err != nil {
			return nil, err
		}
		a, err := ReadRequest(r)
		if err != nil {
			return nil, err
		}
		if a.Kind != Answer || a.Name != strings.ReplaceAll(name, "/", ".") {
			return nil, fmt.Errorf("%w: a %s request for %q while asking for %s", ErrFrame, a.Kind, a.Name, name)
		}
		return a.Class, nil
	}
}
