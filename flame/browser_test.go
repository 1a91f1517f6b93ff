package flame

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// chromium runs Debian's chromium headless with args and returns stdout.
func chromium(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not found: the flame graph is checked in a real browser; install Debian's chromium (bash .ci/run does)")
	}
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, args...)
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}

// TestHTMLInBrowser opens the flame graph in headless chromium: the page's
// script draws every context as a frame, the search highlights the
// matching ones and says what share they hold, and the screenshot shows
// them (the highlight's colour covers a good part of it).
func TestHTMLInBrowser(t *testing.T) {
	p := New("calls", "objects")
	if err := ReadFolded(strings.NewReader(sample), "calls", p, 0); err != nil {
		t.Fatal(err)
	}
	if err := ReadFolded(strings.NewReader("main;java.util.HashMap.put 40\nmain;a 4\n"), "objects", p, 1); err != nil {
		t.Fatal(err)
	}
	p.Sort()
	page := filepath.Join(t.TempDir(), "prof.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, p, "test profile"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	url := "file://" + page + "?search=HashMap"

	dom := chromium(t, "--window-size=1000,300", "--dump-dom", url)
	if m := regexp.MustCompile(`data-frames="(\d+)"`).FindStringSubmatch(dom); m == nil || m[1] != "6" {
		t.Errorf("drawn frames %v, want 6 (all, main, a, b, c, HashMap.put):\n%.2000s", m, dom)
	}
	for _, want := range []string{"<title>java.util.HashMap.put</title>", "<title>main</title>", `class="match"`,
		"matched 15.38% · calls: 13", `<option value="1">objects</option>`} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %q:\n%.3000s", want, dom)
		}
	}

	shot := filepath.Join(os.TempDir(), "weft-flame-test.png")
	chromium(t, "--window-size=1000,300", "--screenshot="+shot, url)
	t.Logf("screenshot: %s", shot)
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	highlighted := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 > 0xd0 && g>>8 < 0x50 && b>>8 > 0xd0 { // #e040e0, the search highlight
				highlighted++
			}
		}
	}
	// HashMap.put is 2/13 of the width (1000 px), one row of 16 px.
	if highlighted < 1500 {
		t.Errorf("the screenshot shows %d highlighted pixels, want the HashMap.put frame (about 2400)", highlighted)
	}
}
