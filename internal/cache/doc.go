// Package cache is weft's one cache store: every file weft keeps between
// runs — the woven JDK and its runtime image, the woven class path, the
// load-time weaving answers, the application's class data sharing archive,
// the compiled runtime and tools — lives under one root, Root: $WEFT_CACHE,
// else the user cache directory's weft/ ($XDG_CACHE_HOME/weft or
// ~/.cache/weft). Nothing is written elsewhere.
//
// # Entries
//
// What weft makes for a set of inputs is an entry, the directory
// ROOT/KIND-KEY: KIND says what it holds (jdk, app, ltw, cds), KEY is the
// digest of the inputs (Hasher: one scheme for every kind). Beside it:
//
//	KIND-KEY.json  what the entry holds (Meta: the aspects, the JDK, the
//	               class path...), written once the entry is complete: an
//	               entry without it is remade; its modification time is the
//	               entry's last use, touched each time a command uses it
//	KIND-KEY.lock  held exclusively while the entry is made, changed or
//	               removed: concurrent commands make an entry once
//	KIND-KEY.use   held shared by each process using the entry, for as long
//	               as its JVM may read it (Acquire to Release, or the
//	               process's end: the kernel drops a dead process's locks)
//
// ROOT/rt holds what is compiled from weft's own sources (the runtime, the
// tools' advice) and facts about JDKs, each file named by the digest of
// what made it: small (a few hundred kilobytes per JDK), shared by every
// entry, not an entry itself; Prune with All removes it.
//
// # The bound
//
// The store has a size bound (DefaultMax, $WEFT_CACHE_MAX, a command's
// --cache-max). After a command has made an entry, Trim removes the
// entries used least recently until the store is under the bound. An
// entry is removed only with both its locks taken without waiting
// (flock LOCK_EX|LOCK_NB): one being made or in use by a running JVM is
// skipped, so a store whose entries are all in use may stay over its bound
// until they are released. A process marks an entry in use while it still
// holds the entry's .lock (Acquire), so no removal can come between
// finding the entry complete and marking it. The lock files are removed
// with the entry, under their locks; a process that locks a lock file
// checks that the name still leads to the file it locked, else it opens
// the new one (lockPath).
package cache
