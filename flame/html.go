package flame

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteHTML writes p as a self-contained interactive flame graph, drawn
// top-down (an icicle: the root on top, so deep profiles start where they
// are read), each context as wide as its total of the chosen metric; click a frame to zoom to it, search frames by substring, hover
// for every metric of a context. The page loads nothing from the network.
//
// The page's data is JSON, {"metrics": [...], "frames": [...], "root":
// NODE}, each NODE [frame index, selfs, children...]: each frame name once,
// zeros at the end of the selfs left out and the totals left to the page,
// compact for profiles of many contexts.
// It is written as it is walked, not built as values for encoding/json: a
// javac profile has a million contexts (dataWriter).
func WriteHTML(w io.Writer, p *Profile, title string) error {
	return writePage(w, title, func(bw *bufio.Writer) error { return writeData(bw, p) })
}

// writePage writes the page around its data, which data writes.
func writePage(w io.Writer, title string, data func(*bufio.Writer) error) error {
	head, tail, err := htmlParts(title)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(head)
	if err := data(bw); err != nil {
		return err
	}
	bw.WriteString(tail)
	return bw.Flush()
}

// dataMark stands for the data in the page's template: the page is the
// template's output split around it.
const dataMark = "WEFT_FLAME_DATA"

// htmlParts returns the page before and after its data.
func htmlParts(title string) (head, tail string, err error) {
	var buf bytes.Buffer
	err = htmlPage.Execute(&buf, struct {
		Title string
		Data  template.JS
	}{title, template.JS(dataMark)})
	if err != nil {
		return "", "", err
	}
	head, tail, _ = strings.Cut(buf.String(), dataMark)
	return head, tail, nil
}

// writeData writes the page's data: frame indexes in preorder, the first
// context of a name numbering it. Names and metrics go through
// encoding/json (it escapes <, > and &: safe in a script element); the
// numbers are formatted as it formats them.
func writeData(w *bufio.Writer, p *Profile) error {
	frames := map[string]int{}
	var names []string
	var number func(n *Node)
	number = func(n *Node) {
		if _, ok := frames[n.Name]; !ok {
			frames[n.Name] = len(names)
			names = append(names, n.Name)
		}
		for _, c := range n.Children {
			number(c)
		}
	}
	number(p.Root)
	return writeDataObject(w, p.Metrics, names, func() error {
		d := dataWriter{w: w, frames: frames}
		d.node(p.Root)
		return d.err
	})
}

// writeDataObject writes the page's data object, {"metrics": metrics,
// "frames": frames, "root": ROOT}, root writing ROOT.
func writeDataObject(w *bufio.Writer, metrics, frames []string, root func() error) error {
	ms, err := json.Marshal(metrics)
	if err != nil {
		return err
	}
	fs, err := json.Marshal(frames)
	if err != nil {
		return err
	}
	w.WriteString(`{"metrics":`)
	w.Write(ms)
	w.WriteString(`,"frames":`)
	w.Write(fs)
	w.WriteString(`,"root":`)
	if err := root(); err != nil {
		return err
	}
	w.WriteByte('}')
	return nil
}

// dataWriter writes contexts as [frame index, selfs, children...].
type dataWriter struct {
	w      *bufio.Writer
	frames map[string]int
	buf    []byte
	err    error
}

func (d *dataWriter) node(n *Node) {
	b := append(d.buf[:0], '[')
	b = strconv.AppendInt(b, int64(d.frames[n.Name]), 10)
	b = append(b, ",["...)
	last := len(n.Self) // zeros at the end are left out
	for last > 0 && n.Self[last-1] == 0 {
		last--
	}
	for i, v := range n.Self[:last] {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			d.err = fmt.Errorf("flame: %s: the value %v cannot be written", n.Name, v)
			v = 0
		}
		b = appendNumber(b, v)
	}
	b = append(b, ']')
	d.w.Write(b)
	d.buf = b
	for _, c := range n.Children {
		d.w.WriteByte(',')
		d.node(c)
	}
	d.w.WriteByte(']')
}

// appendNumber formats v as encoding/json does a float64: integers as
// integers, exponents only below 1e-6 and from 1e21, without a leading
// zero in a negative exponent.
func appendNumber(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 && !math.Signbit(v) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	format := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

var htmlPage = template.Must(template.New("flame").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body { font: 12px Verdana, sans-serif; margin: 0; background: #fff; color: #222; }
header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #f4f4f4; border-bottom: 1px solid #ddd; }
header h1 { font-size: 15px; margin: 0 12px 0 0; }
header input { width: 18em; }
#status { margin-left: auto; color: #555; }
#chart { width: 100%; display: block; }
#chart text { pointer-events: none; font-size: 11px; fill: #000; }
#chart rect { stroke: #fff; stroke-width: 0.5; cursor: pointer; }
#chart rect.match { fill: #e040e0 !important; }
#tip { position: fixed; display: none; background: #fffff0; border: 1px solid #999; padding: 6px 8px;
       box-shadow: 2px 2px 6px rgba(0,0,0,.2); pointer-events: none; max-width: 60em; white-space: pre; }
</style></head>
<body>
<header><h1>{{.Title}}</h1>
<label id="metricLabel">metric <select id="metric"></select></label>
<input id="search" type="search" placeholder="search frames (substring)">
<button id="reset">reset zoom</button>
<span id="status"></span></header>
<svg id="chart" xmlns="http://www.w3.org/2000/svg"></svg>
<div id="tip"></div>
<script id="data" type="application/json">{{.Data}}</script>
<script>
"use strict";
const RAW = JSON.parse(document.getElementById("data").textContent);
const D = RAW.diff ? RAW.data : RAW, DIFF = !!RAW.diff; // a Diff: metrics new, old
const ROW = 17, MINPX = 0.5, SVGNS = "http://www.w3.org/2000/svg";
const chart = document.getElementById("chart"), tip = document.getElementById("tip");
const metricSel = document.getElementById("metric"), search = document.getElementById("search");
const status = document.getElementById("status");
// Nodes: {name, total[], self[], kids[], parent, depth}; totals summed here.
function build(a, parent, depth) {
  const self = a[1]; // zeros at the end are left out
  while (self.length < D.metrics.length) self.push(0);
  const n = {name: D.frames[a[0]], self: self, total: self.slice(), kids: [], parent: parent, depth: depth};
  for (let i = 2; i < a.length; i++) {
    const k = build(a[i], n, depth + 1);
    n.kids.push(k);
    for (let m = 0; m < n.total.length; m++) n.total[m] += k.total[m];
  }
  return n;
}
const root = build(D.root, null, 0);
let maxDepth = 0;
(function depth(n) { maxDepth = Math.max(maxDepth, n.depth); n.kids.forEach(depth); })(root);
D.metrics.forEach((m, i) => { const o = document.createElement("option"); o.value = i; o.textContent = m; metricSel.appendChild(o); });
if (D.metrics.length < 2) document.getElementById("metricLabel").style.display = "none";
let metric = 0, zoomed = root, term = "";
// A differential graph colors by the change of a context's inclusive
// value: red grown, blue shrunk, against the largest change of any.
let maxDelta = 0;
if (DIFF) (function scan(n) { if (n !== root) maxDelta = Math.max(maxDelta, Math.abs(n.total[0] - n.total[1])); n.kids.forEach(scan); })(root);
function diffColor(n) {
  const d = n.total[0] - n.total[1];
  if (d === 0 || maxDelta === 0) return "hsl(0,0%,88%)";
  const l = 92 - 42 * Math.min(1, Math.abs(d) / maxDelta);
  return d > 0 ? "hsl(0,85%," + l + "%)" : "hsl(220,85%," + l + "%)";
}
function color(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  const jdk = /^(java|javax|jdk|sun|com\.sun)\./.test(name);
  const hue = jdk ? 20 + h % 30 : 90 + h % 50;       // JDK frames warm, the program's green
  return "hsl(" + hue + "," + (60 + h % 25) + "%," + (55 + (h >> 8) % 15) + "%)";
}
function fmt(v) { return Number.isInteger(v) ? v.toLocaleString("en") : v.toPrecision(4); }
function pct(v, all) { return all ? (100 * v / all).toFixed(2) + "%" : "-"; }
function render() {
  const width = chart.clientWidth || 1200;
  const height = (maxDepth + 1) * ROW + 4;
  chart.setAttribute("height", height);
  chart.setAttribute("viewBox", "0 0 " + width + " " + height);
  while (chart.firstChild) chart.removeChild(chart.firstChild);
  const all = root.total[metric], zt = zoomed.total[metric] || 1;
  let matched = 0, shown = 0;
  // Ancestors of the zoomed node span the whole width.
  for (let a = zoomed.parent; a; a = a.parent) draw(a, 0, width);
  (function place(n, x, w) {
    if (w < MINPX) return;
    draw(n, x, w);
    let cx = x;
    for (const k of n.kids) { const kw = w * k.total[metric] / (n.total[metric] || 1); place(k, cx, kw); cx += kw; }
  })(zoomed, 0, width);
  function draw(n, x, w) {
    shown++;
    const y = n.depth * ROW;
    const g = document.createElementNS(SVGNS, "g");
    const r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("x", x); r.setAttribute("y", y); r.setAttribute("width", Math.max(w, 0.5)); r.setAttribute("height", ROW - 1);
    r.setAttribute("fill", n === root ? "#d8d8d8" : DIFF ? diffColor(n) : color(n.name));
    if (term && n !== root && n.name.includes(term)) { r.classList.add("match"); }
    const t = document.createElementNS(SVGNS, "title");
    t.textContent = n.name;
    g.appendChild(t); g.appendChild(r);
    if (w > 35) {
      const tx = document.createElementNS(SVGNS, "text");
      tx.setAttribute("x", x + 3); tx.setAttribute("y", y + ROW - 5);
      const fit = Math.floor((w - 6) / 6.5);
      tx.textContent = n.name.length <= fit ? n.name : n.name.slice(0, Math.max(fit - 2, 0)) + "..";
      g.appendChild(tx);
    }
    r.addEventListener("click", () => { zoomed = n; render(); });
    r.addEventListener("mousemove", e => showTip(e, n));
    r.addEventListener("mouseleave", () => { tip.style.display = "none"; });
    chart.appendChild(g);
  }
  if (term) (function count(n) { if (n !== root && n.name.includes(term)) { matched += n.total[metric]; return; } n.kids.forEach(count); })(root);
  status.textContent = (term ? "matched " + pct(matched, all) + " · " : "") +
    D.metrics[metric] + ": " + fmt(all) + (zoomed !== root ? " · zoomed to " + pct(zt, all) : "");
  chart.dataset.frames = shown;
}
function showTip(e, n) {
  const lines = [n.name, ""];
  D.metrics.forEach((m, i) => lines.push(m + ": total " + fmt(n.total[i]) + " (" + pct(n.total[i], root.total[i]) + "), self " + fmt(n.self[i])));
  let s = [], a = n; while (a && a !== root) { s.push(a.name); a = a.parent; }
  if (s.length > 1) lines.push("", "stack depth " + s.length);
  tip.textContent = lines.join("\n");
  tip.style.display = "block";
  tip.style.left = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 8) + "px";
  tip.style.top = (e.clientY + 14) + "px";
}
metricSel.addEventListener("change", () => { metric = +metricSel.value; render(); });
search.addEventListener("input", () => { term = search.value; render(); });
document.getElementById("reset").addEventListener("click", () => { zoomed = root; render(); });
window.addEventListener("resize", render);
const q = new URLSearchParams(location.search);
if (q.get("search")) { term = search.value = q.get("search"); }
render();
</script></body></html>
`))
