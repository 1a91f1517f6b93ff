package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fields names the fields of a record, in their order: the first line of
// every records file (bench/common.sh's BENCH_FIELDS).
var Fields = []string{
	"script", "run", "section", "what", "figure", "reference", "goal", "rounds",
	"command", "jdk", "machine", "load_before", "load_after", "date", "version",
}

// A Record is one figure a benchmark script measured: a line of the
// records bench/common.sh's bench_record writes, its fields separated by
// tabs.
type Record struct {
	Script     string    // the script, e.g. "tools.sh"
	Run        string    // the script's command line, e.g. "bash bench/tools.sh 5"
	Section    string    // the table the figure belongs to, e.g. "javac, 120 files"
	What       string    // what was measured, e.g. "leak"
	Figure     string    // the figure, e.g. "4120 ms wall, 7680 ms CPU: x1.36 CPU"
	Reference  string    // what it is compared with, measured in the same run, or ""
	Goal       string    // the goal it is held to, or ""
	Rounds     string    // how it was taken: rounds, runs, the statistic
	Command    string    // the command measured
	JDK        string    // the JDK's vendor and version
	Machine    string    // processors and CPU model
	LoadBefore float64   // the load average when the measurement began
	LoadAfter  float64   // and when it was recorded
	Date       time.Time // when it was recorded
	Version    string    // weft's version, git describe
}

// ReadRecords reads a records file. Errors name the file, as name, and
// the line.
func ReadRecords(name string, r io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	var recs []Record
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != strings.Join(Fields, "\t") {
				return nil, fmt.Errorf("%s:1: not a records file: the first line must name the fields, %s", name, strings.Join(Fields, " "))
			}
			continue
		}
		rec, err := parseRecord(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s:1: empty: no line naming the fields", name)
	}
	return recs, nil
}

func parseRecord(text string) (Record, error) {
	f := strings.Split(text, "\t")
	if len(f) != len(Fields) {
		return Record{}, fmt.Errorf("%d fields, want %d", len(f), len(Fields))
	}
	for i, name := range Fields {
		switch name {
		case "reference", "goal":
		default:
			if strings.TrimSpace(f[i]) == "" {
				return Record{}, fmt.Errorf("field %s is empty", name)
			}
		}
	}
	r := Record{
		Script: f[0], Run: f[1], Section: f[2], What: f[3], Figure: f[4],
		Reference: f[5], Goal: f[6], Rounds: f[7], Command: f[8], JDK: f[9],
		Machine: f[10], Version: f[14],
	}
	var err error
	if r.LoadBefore, err = strconv.ParseFloat(f[11], 64); err != nil {
		return Record{}, fmt.Errorf("load_before: %q is not a number", f[11])
	}
	if r.LoadAfter, err = strconv.ParseFloat(f[12], 64); err != nil {
		return Record{}, fmt.Errorf("load_after: %q is not a number", f[12])
	}
	if r.Date, err = time.Parse(time.RFC3339, f[13]); err != nil {
		return Record{}, fmt.Errorf("date: %q is not a time such as 2006-01-02T15:04:05Z", f[13])
	}
	return r, nil
}

// scripts orders the scripts' runs on the page and titles them; the runs
// of other scripts follow, by name.
var scripts = []struct{ name, parts, title string }{
	{"suite.sh", "", "The suite: real programs, every mode, against JFR and async-profiler"},
	{"suite.sh", "split", "The suite: where the woven JDK's cost goes, program by program"},
	{"tools.sh", "", "The tools against their goals"},
	{"start.sh", "", "The tools' fixed cost"},
	{"jdk.sh", "", "Weaving the JDK"},
	{"profile.sh", "", "The profiler"},
	{"leak.sh", "", "The leak tracker"},
	{"recrash.sh", "", "The ReCrash recorder"},
	{"cflow.sh", "", "cflow"},
	{"around.sh", "", "Around advice"},
	{"ltw.sh", "", "Load-time weaving"},
	{"ataspectj.sh", "", "AspectJ's aspects: @AspectJ under weft and under AspectJ's load-time weaver"},
	{"jfr.sh", "", "weft and JFR"},
	{"scope.sh", "", "Scopes"},
}

// scriptIndex returns the index in scripts of a record's script: the
// entry of its name and of the PARTS its run was given, if any, else of
// its name alone.
func scriptIndex(r Record) int {
	found := len(scripts)
	for i, s := range scripts {
		switch {
		case s.name != r.Script:
		case s.parts != "" && strings.Contains(r.Run, "PARTS="+s.parts+" "):
			return i
		case s.parts == "" && found == len(scripts):
			found = i
		}
	}
	return found
}

func scriptTitle(r Record) string {
	if i := scriptIndex(r); i < len(scripts) {
		return scripts[i].title
	}
	return r.Script
}

// Preface is the text docs/figures.md opens with.
const Preface = `# Figures

This page is written whole by one command, from the records the benchmark scripts of ` + "`bench/`" + `
write as they run (do not edit it by hand):

    bash bench/figures.sh

runs every script at its full round count, then writes this page; ` + "`bash bench/figures.sh -c`" + ` writes
it from the records of the scripts' last runs (in ` + "`$WEFT_BENCH_OUT`" + `, default ` + "`~/.cache/weft-bench`" + `),
and ` + "`bash bench/figures.sh SCRIPT...`" + ` runs those scripts only. Each script's header says what it
measures and how.

How the figures are taken: the machine is shared with other jobs, so a figure is never one run. The
commands compared run interleaved, one run of each a round, after a warm-up round that fills the caches,
so that the machine's load, which drifts, weighs on all of them alike; a figure is the median (or the
best, as its row says) of its rounds, and a ratio is taken between commands of the same rounds, side by
side. Times are of the whole command, user and system CPU and wall, weft's own process included. Every
row gives the command measured, its JDK, the machine and the load average (one minute) when the
measurement began and when it ended; ` + "`$W`" + ` in a command is the script's work directory.
`

// Figures writes docs/figures.md from records: the preface, then a
// section for each run of a script (its records in the order given;
// runs ordered by script), a table for each of the run's sections.
func Figures(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	b.WriteString(Preface)
	for _, run := range groupRuns(recs) {
		writeRun(&b, run)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// groupRuns groups records by run, the runs ordered by script.
func groupRuns(recs []Record) [][]Record {
	type key struct{ script, run, version string }
	var runs [][]Record
	index := map[key]int{}
	for _, r := range recs {
		k := key{r.Script, r.Run, r.Version}
		i, ok := index[k]
		if !ok {
			i = len(runs)
			index[k] = i
			runs = append(runs, nil)
		}
		runs[i] = append(runs[i], r)
	}
	slices.SortStableFunc(runs, func(a, b []Record) int {
		if c := scriptIndex(a[0]) - scriptIndex(b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[0].Script, b[0].Script)
	})
	return runs
}

func writeRun(b *bytes.Buffer, run []Record) {
	first, last := run[0].Date, run[0].Date
	for _, r := range run {
		if r.Date.Before(first) {
			first = r.Date
		}
		if r.Date.After(last) {
			last = r.Date
		}
	}
	fmt.Fprintf(b, "\n## %s\n\n", scriptTitle(run[0]))
	fmt.Fprintf(b, "%s, weft %s, %s to %s.\n", code(run[0].Run), code(run[0].Version),
		first.UTC().Format("2006-01-02 15:04"), last.UTC().Format("15:04 MST"))
	var sections []string
	bySection := map[string][]Record{}
	for _, r := range run {
		if _, ok := bySection[r.Section]; !ok {
			sections = append(sections, r.Section)
		}
		bySection[r.Section] = append(bySection[r.Section], r)
	}
	for _, s := range sections {
		fmt.Fprintf(b, "\n### %s\n\n", text(s))
		writeTable(b, bySection[s])
	}
}

// writeTable writes a section's records as a table, without the reference
// and goal columns where no record has one.
func writeTable(b *bytes.Buffer, recs []Record) {
	hasRef := slices.ContainsFunc(recs, func(r Record) bool { return r.Reference != "" })
	hasGoal := slices.ContainsFunc(recs, func(r Record) bool { return r.Goal != "" })
	head := []string{"what", "figure"}
	if hasRef {
		head = append(head, "reference")
	}
	if hasGoal {
		head = append(head, "goal")
	}
	head = append(head, "how", "command", "JDK", "machine", "load")
	row(b, head)
	row(b, slices.Repeat([]string{"---"}, len(head)))
	for _, r := range recs {
		cells := []string{text(r.What), text(r.Figure)}
		if hasRef {
			cells = append(cells, text(r.Reference))
		}
		if hasGoal {
			cells = append(cells, text(r.Goal))
		}
		load := strconv.FormatFloat(r.LoadBefore, 'f', 2, 64) + " → " + strconv.FormatFloat(r.LoadAfter, 'f', 2, 64)
		cells = append(cells, text(r.Rounds), code(r.Command), text(r.JDK), text(r.Machine), load)
		row(b, cells)
	}
}

func row(b *bytes.Buffer, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// text escapes s for a table cell of markdown.
var textEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "[", `\[`)

func text(s string) string { return textEscaper.Replace(s) }

// code writes s as code in a table cell: in backticks, its pipes escaped.
func code(s string) string {
	if strings.Contains(s, "`") {
		return text(s)
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}
