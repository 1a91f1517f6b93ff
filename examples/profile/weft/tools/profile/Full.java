package weft.tools.profile;

/**
 * A context with every metric: an allocation site, the [folded] context, a
 * thread's root, and, when every execution is timed (profile.time=exact),
 * every context. (Sampled time is the sampler's, by context.)
 */
class Full extends Counted {
    final boolean site; // an allocation site, not an execution

    long wallNanos; // inclusive wall time, measured (uncompensated)
    long cpuNanos;  // inclusive thread CPU time, when enabled
    long waitNanos; // exclusive: time in the blocking calls of this context's own code (profile.weft's waiting())
    long objects;   // objects allocated at this site
    long arrays;    // arrays allocated at this site (all dimensions)
    long elements;  // array elements allocated at this site (all dimensions)

    Full(int id, boolean site) {
        super(id);
        this.site = site;
    }
}
