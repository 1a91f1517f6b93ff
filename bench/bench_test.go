package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
	rtjava "github.com/weft-aop/weft/runtime-java"
)

const (
	ajc       = "/usr/bin/ajc"
	aspectjrt = "/usr/share/java/aspectjrt.jar"
	guavaJar  = "/usr/share/java/guava.jar"
)

var sep = string(filepath.ListSeparator)

// env is built once: the weft binary, the runtime, the counter advice, the
// workload compiled plain and raw, and woven by weft and by ajc.
type env struct {
	dir, weft, rtJar, adv    string
	plain, raw, woven, ajced string
}

var (
	envOnce sync.Once
	theEnv  *env
	envErr  error
)

func setup(b *testing.B) *env {
	b.Helper()
	envOnce.Do(func() { theEnv, envErr = build(b) })
	if envErr != nil {
		b.Fatal(envErr)
	}
	return theEnv
}

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

func build(b *testing.B) (*env, error) {
	home := jvmtest.JavaHome(b)
	javac := jvmtest.Javac(b)
	for _, f := range []string{ajc, aspectjrt, guavaJar} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%s missing: apt-get install -y aspectj libguava-java", f)
		}
	}
	dir, err := os.MkdirTemp("", "weft-bench-")
	if err != nil {
		return nil, err
	}
	e := &env{dir: dir, weft: filepath.Join(dir, "weft"), rtJar: filepath.Join(dir, "weft-rt.jar")}
	if err := run("go", "build", "-o", e.weft, "github.com/weft-aop/weft/cmd/weft"); err != nil {
		return nil, err
	}
	classes, err := rtjava.Build(home, "")
	if err != nil {
		return nil, err
	}
	if err := archive.WriteClasses(e.rtJar, archive.Jar, classes); err != nil {
		return nil, err
	}
	sub := func(n string) string { return filepath.Join(dir, n) }
	e.adv, e.plain, e.raw, e.woven, e.ajced = sub("adv"), sub("plain"), sub("raw"), sub("woven"), sub("ajc")
	if err := run(javac, "--release", "8", "-cp", e.rtJar, "-d", e.adv, "../examples/count/Counter.java"); err != nil {
		return nil, err
	}
	if err := run(javac, "--release", "8", "-g", "-d", e.plain, "testdata/Work.java"); err != nil {
		return nil, err
	}
	rawSrc, err := os.ReadFile("testdata/WorkRaw.java.in")
	if err != nil {
		return nil, err
	}
	os.MkdirAll(sub("rawsrc/work"), 0o755)
	os.WriteFile(sub("rawsrc/work/Work.java"), rawSrc, 0o644)
	if err := run(javac, "--release", "8", "-g", "-cp", e.adv, "-d", e.raw, sub("rawsrc/work/Work.java")); err != nil {
		return nil, err
	}
	if err := run(e.weft, "weave", "-q", "-a", "testdata/work.weft", "--advice-cp", e.adv, "-o", e.woven, e.plain); err != nil {
		return nil, err
	}
	if err := run(ajc, "-1.8", "-inpath", e.plain, "-cp", aspectjrt+sep+e.adv, "-d", e.ajced, "testdata/Count.aj"); err != nil {
		return nil, err
	}
	return e, nil
}

// measure runs a command and returns its CPU time (user+system, which a
// loaded machine inflates less than wall time) and peak RSS in MB.
func measure(b *testing.B, name string, args ...string) (time.Duration, float64) {
	b.Helper()
	cmd := exec.Command(name, args...)
	// /usr/bin/ajc defaults to -Xmx64M, too small for guava.
	cmd.Env = append(os.Environ(), "JAVA_OPTS=-Xmx2g")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s: %v\n%s", name, err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	_ = d
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), float64(ru.Maxrss) / 1024
}

// BenchmarkWeave weaves guava 31.1 and a 2-class directory with the
// counting aspect, weft and ajc side by side, as processes.
func BenchmarkWeave(b *testing.B) {
	e := setup(b)
	countWeft := "../examples/count/count.weft"
	countAj := filepath.Join(e.dir, "CountAll.aj")
	os.WriteFile(countAj, []byte(`public aspect CountAll {
    before(): (execution(* *(..)) || execution(new(..))) && !within(CountAll) {
        weft.tools.count.Counter.hit(thisJoinPointStaticPart.getId());
    }
}
`), 0o644)
	for _, in := range []struct{ name, path string }{{"guava", guavaJar}, {"2class", e.plain}} {
		out := filepath.Join(e.dir, "out-"+in.name)
		b.Run("weft/"+in.name, func(b *testing.B) {
			var rss float64
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				os.RemoveAll(out)
				o := out
				if strings.HasSuffix(in.path, ".jar") {
					o = filepath.Join(out, "w.jar")
				}
				cpu, rss = measure(b, e.weft, "weave", "-q", "-a", countWeft, "--advice-cp", e.adv, "-o", o, in.path)
			}
			b.ReportMetric(rss, "MB-peak-RSS")
			b.ReportMetric(cpu.Seconds(), "cpu-s")
		})
		b.Run("ajc/"+in.name, func(b *testing.B) {
			var rss float64
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				os.RemoveAll(out)
				cpu, rss = measure(b, ajc, "-1.8", "-inpath", in.path, "-cp", aspectjrt+sep+e.adv, "-outjar", out+".jar", countAj)
			}
			b.ReportMetric(rss, "MB-peak-RSS")
			b.ReportMetric(cpu.Seconds(), "cpu-s")
		})
	}
}

// bestNs runs the workload and returns the best round time it printed.
func bestNs(b *testing.B, workload string, cp ...string) float64 {
	b.Helper()
	out, _ := jvmtest.Run(b, "-cp", strings.Join(cp, sep), "work.Work", workload, "30")
	f := strings.Fields(out)
	if len(f) < 2 || f[0] != "ns" {
		b.Fatalf("workload printed %q", out)
	}
	ns, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}

// BenchmarkOverhead reports, for fib(30) and a loop of a million small
// objects, the best round time unwoven (ms) and as multiples of it: with a
// raw static call of the counter in the source, woven by weft, woven by
// ajc. The counter (examples/count) counts per join point id.
func BenchmarkOverhead(b *testing.B) {
	e := setup(b)
	for _, w := range []string{"fib", "alloc"} {
		b.Run(w, func(b *testing.B) {
			var plain, raw, weft, aj float64
			for i := 0; i < b.N; i++ {
				plain = bestNs(b, w, e.plain)
				raw = bestNs(b, w, e.raw, e.adv)
				weft = bestNs(b, w, e.woven, e.adv)
				aj = bestNs(b, w, e.ajced, aspectjrt, e.adv)
			}
			b.ReportMetric(plain/1e6, "ms-unwoven")
			b.ReportMetric(raw/plain, "x-raw-call")
			b.ReportMetric(weft/plain, "x-weft")
			b.ReportMetric(aj/plain, "x-ajc")
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if theEnv != nil {
		os.RemoveAll(theEnv.dir)
	}
	os.Exit(code)
}

const sampleRecords = "script\trun\tsection\twhat\tfigure\treference\tgoal\trounds\tcommand\tjdk\tmachine\tload_before\tload_after\tdate\tversion\n" +
	"leak.sh\tbash bench/leak.sh 3\tjavac, 120 files\tstock\t4000 ms wall, 7000 ms CPU\t\t\tbest of 3 rounds\tjavac -d $W/out $W/src/gen/*.java\tDebian 17.0.15\t2 cores, Xeon\t0.50\t1.25\t2026-01-02T03:04:05Z\tv1-dirty\n" +
	"leak.sh\tbash bench/leak.sh 3\tjavac, 120 files\tleak: 1 in 64\t5000 ms wall, 9000 ms CPU: x1.29 CPU\tstock: 7000 ms CPU\tx2 CPU\tbest of 3 rounds\tweft leak --sample 64 -- a|b\tDebian 17.0.15\t2 cores, Xeon\t1.25\t2\t2026-01-02T03:09:05Z\tv1-dirty\n"

const sampleFigures = `
## The leak tracker

` + "`bash bench/leak.sh 3`, weft `v1-dirty`, 2026-01-02 03:04 to 03:09 UTC." + `

### javac, 120 files

| what | figure | reference | goal | how | command | JDK | machine | load |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
| stock | 4000 ms wall, 7000 ms CPU |  |  | best of 3 rounds | ` + "`javac -d $W/out $W/src/gen/*.java`" + ` | Debian 17.0.15 | 2 cores, Xeon | 0.50 → 1.25 |
| leak: 1 in 64 | 5000 ms wall, 9000 ms CPU: x1.29 CPU | stock: 7000 ms CPU | x2 CPU | best of 3 rounds | ` + "`weft leak --sample 64 -- a\\|b`" + ` | Debian 17.0.15 | 2 cores, Xeon | 1.25 → 2.00 |
`

func TestFigures(t *testing.T) {
	recs, err := ReadRecords("leak.tsv", strings.NewReader(sampleRecords))
	if err != nil {
		t.Fatal(err)
	}
	cflow := recs[0]
	cflow.Script, cflow.Run, cflow.Section, cflow.What = "cflow.sh", "bash bench/cflow.sh 1", "fib(25)", "unwoven"
	var b strings.Builder
	// The cflow run comes after the leak run's, as the page orders scripts.
	if err := Figures(&b, append([]Record{cflow}, recs...)); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.HasPrefix(got, Preface) {
		t.Fatalf("the page does not open with the preface:\n%s", got)
	}
	got = strings.TrimPrefix(got, Preface)
	leak, rest, ok := strings.Cut(got, "\n## cflow\n")
	if !ok {
		t.Fatalf("no cflow section after the leak tracker's:\n%s", got)
	}
	if leak != sampleFigures {
		t.Errorf("got\n%s\nwant\n%s", leak, sampleFigures)
	}
	if strings.Contains(rest, "| reference |") || strings.Contains(rest, "| goal |") {
		t.Errorf("cflow's table has a reference or goal column, none of its records having one:\n%s", rest)
	}
}

func TestReadRecordsErrors(t *testing.T) {
	header, line, _ := strings.Cut(sampleRecords, "\n")
	good, _, _ := strings.Cut(line, "\n")
	tests := []struct{ name, text, want string }{
		{"empty", "", "empty.tsv:1: empty"},
		{"no header", good + "\n", "no header.tsv:1: not a records file"},
		{"fields", header + "\n" + good + "\n" + "a\tb\n", "fields.tsv:3: 2 fields, want 15"},
		{"empty field", header + "\n" + strings.Replace(good, "best of 3 rounds", "", 1) + "\n", "empty field.tsv:2: field rounds is empty"},
		{"load", header + "\n" + strings.Replace(good, "0.50", "high", 1) + "\n", `load.tsv:2: load_before: "high" is not a number`},
		{"date", header + "\n" + strings.Replace(good, "2026-01-02T03:04:05Z", "today", 1) + "\n", `date.tsv:2: date: "today" is not a time`},
	}
	for _, tt := range tests {
		recs, err := ReadRecords(tt.name+".tsv", strings.NewReader(tt.text))
		if err == nil {
			t.Errorf("%s: no error, %d records", tt.name, len(recs))
			continue
		}
		if !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %q, want it to begin %q", tt.name, err, tt.want)
		}
	}
}
