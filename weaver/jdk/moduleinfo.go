package jdk

import (
	"encoding/binary"
	"fmt"
	"path"
	"sort"

	"github.com/weft-aop/weft/classfile"
)

// moduleInfo is a module's module-info.class, edited for a woven runtime
// image: the packages weaving added (the runtime's weft/rt in java.base)
// and the hashes of the tied modules whose jmod files were rewritten.
type moduleInfo struct {
	name string
	c    *classfile.Class
}

func parseModuleInfo(module string, data []byte) (*moduleInfo, error) {
	c, err := classfile.Parse(module+"/module-info.class", data)
	if err != nil {
		return nil, err
	}
	return &moduleInfo{name: module, c: c}, nil
}

// packages returns the packages the descriptor lists (ModulePackages),
// internal names.
func (mi *moduleInfo) packages() (map[string]bool, error) {
	v, err := mi.c.FindAttr(mi.c.Attributes, "ModulePackages")
	if err != nil {
		return nil, err
	}
	pkgs := map[string]bool{}
	if v != nil {
		for _, i := range v.(*classfile.ModulePackages).Packages {
			pkgs[mi.c.Pool.Utf8(mi.c.Pool.Get(i).A)] = true
		}
	}
	return pkgs, nil
}

// addPackages lists pkgs (internal names) in ModulePackages and, those
// also in export, as exported to every module.
func (mi *moduleInfo) addPackages(pkgs []string, export map[string]bool) error {
	c, p := mi.c, mi.c.Pool
	mod, err := c.FindAttr(c.Attributes, "Module")
	if err != nil || mod == nil {
		return fmt.Errorf("%s/module-info.class: no Module attribute (%v)", mi.name, err)
	}
	mp, err := c.FindAttr(c.Attributes, "ModulePackages")
	if err != nil {
		return err
	}
	if mp == nil {
		mp = &classfile.ModulePackages{}
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		idx := p.Add(classfile.Constant{Tag: classfile.TagPackage, A: p.AddUtf8(pkg)})
		mp.(*classfile.ModulePackages).Packages = append(mp.(*classfile.ModulePackages).Packages, idx)
		if export[pkg] {
			m := mod.(*classfile.Module)
			m.Exports = append(m.Exports, classfile.ModuleExport{Package: idx})
		}
	}
	for _, v := range []classfile.AttrValue{mod, mp} {
		a, err := classfile.EncodeAttr(c, v)
		if err != nil {
			return err
		}
		mi.setAttr(a)
	}
	return nil
}

func (mi *moduleInfo) setAttr(a classfile.Attribute) {
	for i := range mi.c.Attributes {
		if mi.c.Attributes[i].Name == a.Name {
			mi.c.Attributes[i] = a
			return
		}
	}
	mi.c.Attributes = append(mi.c.Attributes, a)
}

// hashed returns the modules whose hashes the descriptor records
// (ModuleHashes, a JDK attribute: u2 algorithm, u2 count, then per module
// u2 Module entry, u2 length, the hash), each with the offset of its hash
// in the attribute's info.
func (mi *moduleInfo) hashed() (map[string]int, error) {
	a := mi.c.Attr(mi.c.Attributes, "ModuleHashes")
	if a == nil {
		return nil, nil
	}
	b, p := a.Info, mi.c.Pool
	bad := fmt.Errorf("%s/module-info.class: malformed ModuleHashes attribute", mi.name)
	if len(b) < 4 {
		return nil, bad
	}
	if alg := p.Utf8(binary.BigEndian.Uint16(b)); alg != "SHA-256" {
		return nil, fmt.Errorf("%s/module-info.class: module hashes use %s, only SHA-256 is supported", mi.name, alg)
	}
	n, off := int(binary.BigEndian.Uint16(b[2:])), 4
	out := map[string]int{}
	for i := 0; i < n; i++ {
		if off+4 > len(b) {
			return nil, bad
		}
		m := p.Utf8(p.Get(binary.BigEndian.Uint16(b[off:])).A)
		size := int(binary.BigEndian.Uint16(b[off+2:]))
		if size != 32 || off+4+size > len(b) {
			return nil, bad
		}
		out[m] = off + 4
		off += 4 + size
	}
	return out, nil
}

// setHashes replaces the recorded hashes of the modules in sums.
func (mi *moduleInfo) setHashes(sums map[string][]byte) error {
	at, err := mi.hashed()
	if err != nil {
		return err
	}
	a := mi.c.Attr(mi.c.Attributes, "ModuleHashes")
	for m, sum := range sums {
		if off, ok := at[m]; ok {
			info := append([]byte(nil), a.Info...) // Info aliases the parsed bytes
			copy(info[off:], sum)
			a.Info = info
		}
	}
	return nil
}

func (mi *moduleInfo) bytes() []byte { return mi.c.Bytes() }

// packageOf returns the package (internal name) of a resource path, ""
// for one in no package.
func packageOf(name string) string {
	if d := path.Dir(name); d != "." {
		return d
	}
	return ""
}
