package jdk

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/weft-aop/weft/internal/parallel"
	"github.com/weft-aop/weft/internal/proc"
	"github.com/weft-aop/weft/runtime-java/rtnames"
	"github.com/weft-aop/weft/weaver"
)

// The runtime image's class data sharing archives, the last phase of
// LinkImage.

// writeClassList adds to the image's lib/classlist, the classes its
// default archive holds (those a start-up loads), the classes woven code
// loads with them: the runtime and the sister classes of those listed.
func (b *imageBuild) writeClassList() error {
	file := filepath.Join(b.opts.Out, "lib", "classlist")
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	woven := map[string]bool{}
	var add []string
	for _, in := range b.woven {
		for _, e := range in.Entries {
			if name, ok := strings.CutSuffix(e.Name, ".class"); ok {
				woven[name] = true
				if strings.HasPrefix(name, rtnames.PackagePrefix) {
					add = append(add, name)
				}
			}
		}
	}
	sort.Strings(add)
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.ContainsAny(line, "#@ ") && woven[line+weaver.SisterSuffix] {
			add = append(add, line+weaver.SisterSuffix)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, "# weft: the runtime and the sister classes of the classes above\n"...)
	data = append(data, strings.Join(add, "\n")+"\n"...)
	return os.WriteFile(file, data, 0o644)
}

// defaultArchives are the default class data sharing archives a JDK may
// have in lib/server/, each with the options that make the JVM map (and
// dump) it: JDK 17 has the first two, JDK 25 the compact object headers'
// two as well. An image gets those its JDK has.
var defaultArchives = []struct {
	file string
	opts []string
}{
	{"classes.jsa", nil},
	{"classes_nocoops.jsa", []string{"-XX:-UseCompressedOops"}},
	{"classes_coh.jsa", []string{"-XX:+UseCompactObjectHeaders"}},
	{"classes_nocoops_coh.jsa", []string{"-XX:-UseCompressedOops", "-XX:+UseCompactObjectHeaders"}},
}

// dumpCDS makes the image's default class data sharing archives as the
// stock JDK has them (defaultArchives; only the first with
// opts.DefaultArchiveOnly) with the image's java, then checks that it maps
// the default one.
func (b *imageBuild) dumpCDS() error {
	if err := b.writeClassList(); err != nil {
		return err
	}
	java := filepath.Join(b.opts.Out, "bin", "java")
	// The dumps run Java code of the image (class initializers, the box
	// caches): without the user's advice.
	unadvised := "-D" + rtnames.UnadvisedProperty + "=true"
	var dumps [][]string
	for i, a := range defaultArchives {
		if i > 0 && b.opts.DefaultArchiveOnly {
			break
		}
		if _, err := os.Stat(filepath.Join(b.opts.JavaHome, "lib", "server", a.file)); err == nil || i == 0 {
			dumps = append(dumps, append(append([]string{unadvised}, a.opts...), "-Xshare:dump"))
		}
	}
	err := parallel.Each(len(dumps), b.opts.Workers, func(i int) error {
		if out, err := proc.CombinedOutput(exec.Command(java, dumps[i]...)); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", java, strings.Join(dumps[i], " "), err, out)
		}
		return nil
	})
	if err != nil {
		return err
	}
	out, err := proc.CombinedOutput(exec.Command(java, unadvised, "-Xshare:on", "-version"))
	if err != nil || !bytes.Contains(out, []byte("sharing")) {
		return fmt.Errorf("%s -Xshare:on -version: the image's class data sharing archive does not map (%v):\n%s", java, err, out)
	}
	return nil
}
