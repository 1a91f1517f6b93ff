package main

// imageArgs returns the arguments of a launcher of the image: the image
// holds the woven JDK's options, so only extra JVM options are added (as
// -J options for launchers other than java, and -R options too for
// jshell's snippet JVM), and java's class path is the woven one.
func imageArgs(name string, tool bool, extra, args []string) []string {
	if !tool {
		return append(append([]string(nil), extra...), args...)
	}
	var out []string
	for _, x := range extra {
		out = append(out, "-J"+x)
	}
	if name == "jshell" {
		for _, x := range extra {
			out = append(out, "-R"+x)
		}
	}
	return append(out, args...)
}
