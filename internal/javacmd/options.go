package javacmd

// The java launcher's options that take their value as the next argument
// (and, spelled with two dashes, also as --name=value), as the launcher
// of JDK 17 and later lists them (java.c: IsModuleOption,
// IsLauncherOption); -m and --module, which also end the launcher's
// options, are handled apart.
var valueOptions = map[string]bool{
	"-cp": true, "-classpath": true, "--class-path": true,
	"-p": true, "--module-path": true, "--upgrade-module-path": true,
	"--add-modules": true, "--enable-native-access": true, "--limit-modules": true,
	"--add-exports": true, "--add-opens": true, "--add-reads": true, "--patch-module": true,
	"-d": true, "--describe-module": true, "--source": true,
}

// isClassPathOption reports whether name is one of the class path's
// spellings.
func isClassPathOption(name string) bool {
	return name == "-cp" || name == "-classpath" || name == "--class-path"
}

// isModulePathOption reports whether name sets the module path.
func isModulePathOption(name string) bool { return name == "-p" || name == "--module-path" }

// splitLong splits a --name=value argument of a value option; ok is false
// for anything else.
func splitLong(arg string) (name, value string, ok bool) {
	if len(arg) < 3 || arg[:2] != "--" {
		return "", "", false
	}
	for i := 2; i < len(arg); i++ {
		if arg[i] == '=' {
			if valueOptions[arg[:i]] || arg[:i] == "--module" {
				return arg[:i], arg[i+1:], true
			}
			return "", "", false
		}
	}
	return "", "", false
}

// tools are the JDK launchers other than java whose JVM options are
// given as -J options; any other name is parsed as java.
var tools = map[string]bool{
	"javac": true, "jar": true, "jarsigner": true, "javadoc": true, "javap": true, "jcmd": true,
	"jconsole": true, "jdb": true, "jdeprscan": true, "jdeps": true, "jfr": true, "jhsdb": true,
	"jimage": true, "jinfo": true, "jlink": true, "jmap": true, "jmod": true, "jpackage": true,
	"jps": true, "jrunscript": true, "jshell": true, "jstack": true, "jstat": true, "jstatd": true,
	"keytool": true, "rmiregistry": true, "serialver": true, "jwebserver": true,
}
