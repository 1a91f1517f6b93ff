package advice

// CflowEntry describes the advice a Matcher adds at each shadow of the
// pointcut P of cflow(P) or cflowbelow(P): the woven code enters the
// cflow's per-thread state there (Enter: Kind Before) and leaves it on
// every exit, normal or exceptional (Kind After), and InCflow residues at
// advised shadows test it.
//
// A cflow enters before any other advice at the shadow and leaves after
// all of it, so the join point is in its own cflow; a cflowbelow enters
// after the other before advice and leaves before the other after advice,
// so only join points below it are.
type CflowEntry struct {
	// Key names the cflow's state at run time. It is derived from the
	// cflow's text (aspect, pointcut, bound formals), so classes woven
	// separately (the JDK, the application, classes woven at load time)
	// agree on it. Never 0.
	Key   int32
	Below bool // cflowbelow
	Enter bool // the entry (Before); false: the exit (After)
	// Values is the number of values each entry pushes (the formals
	// bound inside the cflow): the entry's Applied.Args.
	Values int
	// Text is the cflow as written, for messages.
	Text string
}
