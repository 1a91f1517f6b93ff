package main

import (
	"github.com/spf13/cobra"

	"github.com/weft-aop/weft/launch"
)

// cacheHelp is what weft cache teaches: the cache's layout and bound.
const cacheHelp = `cache lists and prunes what weft keeps between runs, all under one
directory: $WEFT_CACHE, else the user cache directory's weft/
(~/.cache/weft). Each entry is made once for a set of inputs and reused:

  jdk  the JDK woven for a set of aspects (and modules), with the runtime
       image linked from it (weft run, serve, profile, leak, recrash)
  app  the application's class path woven for them
  ltw  the load-time weaving answers of a JDK or class path
  cds  a program's class data sharing archive on a woven image
  rt   weft's runtime and tools' advice compiled, facts about JDKs (small,
       not an entry: removed only by prune --all)

The cache is bounded: after a command makes an entry, the entries used
least recently are removed until the cache is under the bound (5G, or
$WEFT_CACHE_MAX, or the command's --cache-max). An entry a running JVM
uses is never removed: weft run and the others mark theirs in use until
the JVM exits.`

// newCacheCmd returns weft cache and its subcommands.
func newCacheCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache [list | prune]",
		Short: "List and prune weft's cache (woven JDKs, class paths, load-time answers)",
		Long: cacheHelp + `

Examples:

  weft cache                          # what the cache holds, least recently used first
  weft cache prune                    # bring it under its bound
  weft cache prune --max 2G           # ... under 2 GB
  weft cache prune --older-than 168h  # remove what was not used for a week
  weft cache prune --all              # remove everything not in use
  WEFT_CACHE_MAX=2G weft run ...      # bound the cache to 2 GB`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return launch.ListCache(cmd.OutOrStdout())
		},
	}
	cmd.AddCommand(newCacheListCmd(), newCachePruneCmd())
	return cmd
}

func newCacheListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the cache's entries: what each holds, its size, its last use",
		Long: `list prints the cache's entries, least recently used (first evicted)
first: their kind, key, size, last use, whether a process uses them now,
and what they hold (the aspects, the JDK and its version, the modules, the
class path). The last line gives the total and the bound.

Example:

  weft cache list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return launch.ListCache(cmd.OutOrStdout())
		},
	}
}

func newCachePruneCmd() *cobra.Command {
	opts := &launch.PruneOptions{}
	cmd := &cobra.Command{
		Use:   "prune [--max SIZE] [--older-than DURATION] [--all]",
		Short: "Remove cache entries: the least recently used over a size, the old, or all",
		Long: `prune removes entries of the cache that no process uses: with no flag, the
least recently used until the cache is under its bound ($WEFT_CACHE_MAX,
else 5G); with --max, under SIZE; with --older-than, those not used for
DURATION; with --all, every one, and the compiled runtimes too. An entry
in use (a JVM runs on it) is kept and said so.

Examples:

  weft cache prune
  weft cache prune --max 1G
  weft cache prune --older-than 720h
  weft cache prune --all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return launch.PruneCache(cmd.OutOrStdout(), *opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Max, "max", "", "remove the least recently used entries until the cache is under `SIZE` (e.g. 2G, 500M)")
	f.BoolVar(&opts.All, "all", false, "remove every entry not in use, and the compiled runtimes")
	f.DurationVar(&opts.OlderThan, "older-than", 0, "remove the entries last used longer ago than `DURATION` (e.g. 168h)")
	return cmd
}
