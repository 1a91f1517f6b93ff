package main

import (
	"github.com/spf13/pflag"

	"github.com/weft-aop/weft/launch"
)

// addScopeFlags adds the flags that narrow what a command weaves: classes
// by glob (--include, --exclude), or a scope file or aop.xml (--scope).
func addScopeFlags(f *pflag.FlagSet, opts *launch.ScopeOptions) {
	f.StringArrayVar(&opts.Include, "include", nil, "weave only classes matching this `GLOB` over internal names (com/acme/**; repeatable)")
	f.StringArrayVar(&opts.Exclude, "exclude", nil, "never weave classes matching this `GLOB` (**/generated/**; repeatable)")
	f.StringVar(&opts.File, "scope", "", "read include and exclude patterns from `FILE`: one a line, ! to exclude, # comments; or an AspectJ aop.xml's <weaver> element")
}
